import { defineRoute } from '@/server/http/route';
import { ListQuerySchema, pageOf } from '@/server/http/list-query';
import { conflictError, securedErrors } from '@/server/http/responses';
import { CustomerCreateSchema, CustomerSchema } from './customers.schemas';

export const selectCustomersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/customer/select',
    operationId: 'selectCustomers',
    tags: ['Customers'],
    summary: 'Customers the caller can access, paged',
    description: 'ADMIN: every customer; the OWNER of a network owner: its own customer and its members; everyone else: their own customer.',
    request: { query: ListQuerySchema },
    responses: {
      200: { description: 'A page of customers', content: { 'application/json': { schema: pageOf(CustomerSchema, 'CustomerPage') } } },
      ...securedErrors,
    },
  },
);

export const createCustomerRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'post',
    path: '/api/customer',
    operationId: 'createCustomer',
    tags: ['Customers'],
    summary: 'Create a customer (tenant)',
    request: { body: { required: true, content: { 'application/json': { schema: CustomerCreateSchema } } } },
    responses: {
      201: { description: 'The created customer', content: { 'application/json': { schema: CustomerSchema } } },
      ...securedErrors,
      ...conflictError,
    },
  },
);
