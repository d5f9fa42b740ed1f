import { z } from '@hono/zod-openapi';
import { json } from '@/server/http/list-query';
import { sharedErrors } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { CustomerInvoiceSchema, GlobalInvoiceSchema, InvoiceQuerySchema } from './license-invoices.schemas';

const tags = ['Licences'];
const admin = { minRole: 'ADMIN', tenant: 'none' } as const;
const formula =
  'Monthly recurring revenue per order = `pricePerDevice` × `deviceLicenseCount` × a multiplier: DAILY 30 / frequency, WEEKLY 4.333333 / frequency, ' +
  'MONTHLY 1 / frequency, YEARLY frequency / 12 (as spec 3 states it). Counted: approved SUBSCRIPTION orders with a price and currency whose ' +
  '`invoiceStartDate` is not set or on or before `date` (`orderDate` is not considered). Currencies are reported separately, no conversion; ' +
  'sums are exact decimals, `monthlyAverage` rounded to 6 places. A missing or malformed `date` answers 400.';

export const getGlobalInvoiceRoute = defineRoute(admin, {
  method: 'get',
  path: '/api/customer/global/view/invoice',
  operationId: 'getGlobalInvoice',
  tags,
  summary: 'Monthly recurring revenue of every customer, per currency',
  description: formula,
  request: { query: InvoiceQuerySchema },
  responses: { 200: { description: 'The revenue per currency', ...json(GlobalInvoiceSchema) } },
});

export const getCustomerInvoiceRoute = defineRoute(
  admin,
  {
    method: 'get',
    path: '/api/customer/{customerId}/view/invoice',
    operationId: 'getCustomerInvoice',
    tags,
    summary: "A customer's invoice view",
    description:
      `${formula} The tables group the counted orders by recurrence and currency, one item per licence type and unit price. ` +
      'For a network owner (a customer with `subreseller`) the total covers its own and its members’ orders, ' +
      '`networkOwnerInvoiceTables` its own, `networkMembersInvoiceTables` its members’ together, and the tier counts its members; ' +
      'any other customer answers empty network tables and zero counts.',
    request: {
      params: z.object({ customerId: intIdParam.openapi({ param: { name: 'customerId', in: 'path' }, description: 'The customer' }) }),
      query: InvoiceQuerySchema,
    },
    responses: {
      200: { description: 'The invoice view', ...json(CustomerInvoiceSchema) },
      404: { ...sharedErrors[404], description: 'No such customer (`customer.error.notFound`)' },
    },
  },
  { resourceIds: { 'path.customerId': 'customer' } },
);
