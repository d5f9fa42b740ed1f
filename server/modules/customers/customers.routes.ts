import { z } from '@hono/zod-openapi';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { PROTECTED_OPERATION_LIMIT, conflictError, notFoundError } from '@/server/http/responses';
import { CustomerCreateSchema, CustomerSchema, CustomerUpdateSchema, DeviceSettingsSchema, TeamSettingsSchema } from './customers.schemas';

const tags = ['Customers'];
const CustomerPage = pageOf(CustomerSchema, 'CustomerPage');
const customerResponse = (description: string) => ({ description, content: { 'application/json': { schema: CustomerSchema } } });
/** A required JSON body of `schema`. */
const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, ...json(schema) });

const IdParams = z.object({
  id: intIdParam.openapi({ param: { name: 'id', in: 'path' }, description: 'The customer' }),
});
const managerNote = 'ADMIN, or the OWNER of a network owner for its member customers.';

export const selectCustomersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/customer/select',
    operationId: 'selectCustomers',
    tags,
    summary: 'Customers the caller can access, paged',
    description:
      'ADMIN: every customer; the OWNER of a network owner: its own customer and its members; everyone else: their own customer.',
    request: { query: ListQuerySchema },
    responses: { 200: { description: 'A page of customers', content: { 'application/json': { schema: CustomerPage } } } },
  },
);

export const listCustomersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/customer',
    operationId: 'listCustomers',
    tags,
    summary: 'Customers of the selected scope, paged',
    description:
      'ADMIN: all customers or the selected one; the OWNER of a network owner: its own customer and its members; everyone else: their own customer. Network owners carry a `subreseller` object; filter them with `search=subreseller=!NULL`, their members with `ownerSubresellerId={id}`.',
    request: { query: ScopedListQuerySchema },
    responses: { 200: { description: 'A page of customers', content: { 'application/json': { schema: CustomerPage } } } },
  },
);

export const getCustomerRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/customer/{id}',
    operationId: 'getCustomer',
    tags,
    summary: 'One customer',
    request: { params: IdParams, query: SelectQuerySchema },
    responses: { 200: customerResponse('The customer') },
  },
  { resourceIds: { 'path.id': 'customer' } },
);

export const createCustomerRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'none' },
  {
    method: 'post',
    path: '/api/customer',
    operationId: 'createCustomer',
    tags,
    summary: 'Create a customer (tenant)',
    description: `${managerNote} A network owner's new customer belongs to it and must be STARTER or BUSINESS. Creates the root device folder, the root file folder and the Templates content folder.`,
    request: { body: jsonBody(CustomerCreateSchema) },
    responses: { 201: customerResponse('The created customer'), ...notFoundError, ...conflictError },
  },
  {
    notResourceIds: {
      'body.adnetworkNetworkId': 'an advertising network’s own id, not ours',
      'body.ownerSubresellerId': 'network membership: customers.manage.api.test.ts covers a foreign network owner',
    },
  },
);

export const updateCustomerRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'none' },
  {
    method: 'put',
    path: '/api/customer/{id}',
    operationId: 'updateCustomer',
    tags,
    summary: 'Update a customer (partial)',
    description: `${managerNote} \`restricted=true\` blocks all access and revokes every token of the customer's users at once.`,
    request: { params: IdParams, body: jsonBody(CustomerUpdateSchema) },
    responses: { 200: customerResponse('The updated customer'), ...notFoundError, ...conflictError },
  },
  {
    notResourceIds: {
      'body.adnetworkNetworkId': 'an advertising network’s own id, not ours',
      'path.id': 'a plain OWNER may not manage customers at all (403 before any lookup)',
    },
  },
);

export const deleteCustomerRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/customer/{id}',
    operationId: 'deleteCustomer',
    tags,
    summary: 'Delete a customer and everything it owns',
    description: `${managerNote} A protected operation. Refused for the caller's own customer and for a network owner that still has members.`,
    request: { params: IdParams },
    responses: { 204: { description: 'Deleted' }, ...notFoundError, ...conflictError },
  },
  {
    rateLimited: PROTECTED_OPERATION_LIMIT,
    notResourceIds: { 'path.id': 'a plain OWNER may not manage customers at all (403 before any lookup)' },
  },
);

export const updateTeamSettingsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/customer/settings/teams',
    operationId: 'updateCustomerTeamSettings',
    tags,
    summary: 'Change the team access settings of the selected customer',
    request: { query: z.object({ customerId: customerIdParam }), body: jsonBody(TeamSettingsSchema) },
    responses: { 200: customerResponse('The updated customer') },
  },
);

export const updateDeviceSettingsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/customer/settings/devices',
    operationId: 'updateCustomerDeviceSettings',
    tags,
    summary: 'Change the device defaults of the selected customer',
    description:
      '`defaultTimeZone`: the time zone the console proposes when a device is claimed (the claim itself still names its zone). Omitted or null keeps it; `""` removes it.',
    request: { query: z.object({ customerId: customerIdParam }), body: jsonBody(DeviceSettingsSchema) },
    responses: { 200: customerResponse('The updated customer') },
  },
);

export const setDefaultContentsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/customer/settings/setDefaultContents',
    operationId: 'setCustomerDefaultContents',
    tags,
    summary: 'Set or remove the default emergency content of the selected customer',
    request: {
      query: z.object({
        customerId: customerIdParam,
        defaultEmergencyContentId: z
          .union([z.literal('null'), z.uuid()])
          .openapi({ description: 'A content id of the customer (404 otherwise), or the word `null` to remove it' }),
      }),
    },
    responses: { 200: customerResponse('The updated customer') },
  },
  { resourceIds: { 'query.defaultEmergencyContentId': 'deviceContent' } },
);

export const promoteAsSubresellerRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'post',
    path: '/api/customer/{id}/promoteAsSubreseller',
    operationId: 'promoteCustomerAsSubreseller',
    tags,
    summary: 'Make a customer a network owner',
    request: { params: IdParams },
    responses: { 200: customerResponse('The network owner'), ...notFoundError, ...conflictError },
  },
);

export const removeSubresellerPrivilegeRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'post',
    path: '/api/customer/{id}/removeSubresellerPrivilege',
    operationId: 'removeCustomerSubresellerPrivilege',
    tags,
    summary: 'Make a network owner a plain customer again',
    description: 'Refused (409 `customer.error.hasMembers`) while it owns customers.',
    request: { params: IdParams },
    responses: { 200: customerResponse('The customer'), ...notFoundError, ...conflictError },
  },
);

export const moveToSubresellerRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'put',
    path: '/api/customer/{id}/moveToSubreseller',
    operationId: 'moveCustomerToSubreseller',
    tags,
    summary: 'Move a customer to a network owner, or out of its network owner',
    request: {
      params: IdParams,
      query: z.object({
        subresellerId: intIdParam.optional().openapi({ description: 'The network owner; omitted: the customer leaves its network owner' }),
      }),
    },
    responses: { 200: customerResponse('The moved customer'), ...notFoundError },
  },
);
