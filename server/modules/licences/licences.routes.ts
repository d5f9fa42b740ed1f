import { z } from '@hono/zod-openapi';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { conflictError, notFoundError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import {
  LicenseDashboardSchema,
  LicenseOrderCreateSchema,
  LicenseOrderCustomerCreateSchema,
  LicenseOrderLimitedSchema,
  LicenseOrderSchema,
  LicenseOrderUpdateSchema,
  LicensePackageCreateSchema,
  LicensePackageSchema,
  LicensePackageUpdateSchema,
  UnapprovedCountSchema,
} from './licences.schemas';

const tags = ['Licences'];
const ORDERS = '/api/licenseOrder';
const PACKAGES = '/api/licensePackage';
const admin = { minRole: 'ADMIN', tenant: 'none' } as const;
const ScopeQuery = z.object({ customerId: customerIdParam });
const IdParams = (description: string) => z.object({ id: intIdParam.openapi({ param: { name: 'id', in: 'path' }, description }) });
const CustomerParams = z.object({
  customerId: intIdParam.openapi({ param: { name: 'customerId', in: 'path' }, description: 'The customer' }),
});
const orderResponse = (description: string) => ({ description, ...json(LicenseOrderSchema) });
const packageResponse = (description: string) => ({ description, ...json(LicensePackageSchema) });
const byOrderId = { resourceIds: { 'path.id': 'licenseOrder' } } as const;
const PACKAGE_ID_REASON = 'a licence package: global templates of no tenant; an unknown id answers 404 `licensePackage.error.notFound`';
const scopeNote = 'Takes the `customerId` selector; without it the order is found wherever the caller can see it.';
const limitedNote =
  "Spec 3's limited view (`id`, `licenseType`, `licensePayType`, `recurrence`, `orderDate`, `comment`, `deviceLicenseCount`, " +
  '`assignedDeviceCount`, `approved`, `poNumber`) of every such order of the customer, newest first. A customer outside the ' +
  "caller's scope answers 404 like a missing one.";
const packageNotFound = { 404: { ...notFoundError[404], description: 'No such licence package (`licensePackage.error.notFound`)' } };

// ---------------------------------------------------------------------------------------------------------------
// Packages (ADMIN)

export const listLicensePackagesRoute = defineRoute(admin, {
  method: 'get',
  path: PACKAGES,
  operationId: 'listLicensePackages',
  tags,
  summary: 'Licence packages, paged',
  description: 'The templates of tier and pricing an order may name. By name unless `sort` says otherwise.',
  request: { query: ListQuerySchema },
  responses: { 200: { description: 'A page of licence packages', ...json(pageOf(LicensePackageSchema, 'LicensePackagePage')) } },
});

// ADMIN routes are not swept for another tenant's ids (an ADMIN sees every tenant); packages have no tenant anyway.
export const getLicensePackageRoute = defineRoute(admin, {
  method: 'get',
  path: `${PACKAGES}/{id}`,
  operationId: 'getLicensePackage',
  tags,
  summary: 'One licence package',
  request: { params: IdParams('The licence package') },
  responses: { 200: packageResponse('The licence package'), ...packageNotFound },
});

export const createLicensePackageRoute = defineRoute(admin, {
  method: 'post',
  path: PACKAGES,
  operationId: 'createLicensePackage',
  tags,
  summary: 'Create a licence package',
  description: 'Names are unique (409 `licensePackage.error.nameExists`).',
  request: { body: { required: true, ...json(LicensePackageCreateSchema) } },
  responses: { 201: packageResponse('The created licence package'), ...conflictError },
});

export const updateLicensePackageRoute = defineRoute(admin, {
  method: 'put',
  path: `${PACKAGES}/{id}`,
  operationId: 'updateLicensePackage',
  tags,
  summary: 'Change a licence package (partial)',
  request: { params: IdParams('The licence package'), body: { required: true, ...json(LicensePackageUpdateSchema) } },
  responses: { 200: packageResponse('The updated licence package'), ...packageNotFound, ...conflictError },
});

export const deleteLicensePackageRoute = defineRoute(admin, {
  method: 'delete',
  path: `${PACKAGES}/{id}`,
  operationId: 'deleteLicensePackage',
  tags,
  summary: 'Delete a licence package',
  description: 'Orders made from it keep their tier and pricing and lose the reference (`licensePackageId`).',
  request: { params: IdParams('The licence package') },
  responses: { 204: { description: 'Deleted' }, ...packageNotFound },
});

// ---------------------------------------------------------------------------------------------------------------
// Orders

export const listLicenseOrdersRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: ORDERS,
    operationId: 'listLicenseOrders',
    tags,
    summary: 'Licence orders, paged (full entity)',
    description:
      'The orders of the caller’s scope (a network owner: its network; ADMIN: every tenant or the one selected), newest `orderDate` first unless `sort` says otherwise. Without `select`: every field with `customer`, `recurrence`, `licensePackage`, `approvedByUser`, `soldByUser` and `assignedDeviceCount`.',
    request: { query: ScopedListQuerySchema },
    responses: { 200: { description: 'A page of licence orders', ...json(pageOf(LicenseOrderSchema, 'LicenseOrderPage')) } },
  },
);

export const getLicenseOrderRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: `${ORDERS}/{id}`,
    operationId: 'getLicenseOrder',
    tags,
    summary: 'One licence order (full entity)',
    description: scopeNote,
    request: { params: IdParams('The licence order'), query: ScopeQuery.merge(SelectQuerySchema) },
    responses: { 200: orderResponse('The licence order') },
  },
  byOrderId,
);

export const listCustomerLicenseOrdersRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'none' },
  {
    method: 'get',
    path: `${ORDERS}/getByCustomer/{customerId}`,
    operationId: 'getLicenseOrdersByCustomer',
    tags,
    summary: "A customer's licence orders (limited view)",
    description: limitedNote,
    request: { params: CustomerParams },
    responses: { 200: { description: 'The orders', ...json(z.array(LicenseOrderLimitedSchema)) } },
  },
  { resourceIds: { 'path.customerId': 'customer' } },
);

export const listApprovedCustomerLicenseOrdersRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'none' },
  {
    method: 'get',
    path: `${ORDERS}/getAllApprovedForCustomer/{customerId}`,
    operationId: 'getAllApprovedLicenseOrdersForCustomer',
    tags,
    summary: "A customer's approved licence orders (limited view)",
    description: `The orders a device may be licensed against. ${limitedNote}`,
    request: { params: CustomerParams },
    responses: { 200: { description: 'The approved orders', ...json(z.array(LicenseOrderLimitedSchema)) } },
  },
  { resourceIds: { 'path.customerId': 'customer' } },
);

export const exportLicenseOrdersCsvRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'scoped' },
  {
    method: 'get',
    path: `${ORDERS}/csv`,
    operationId: 'exportLicenseOrdersCsv',
    tags,
    summary: 'Licence orders as CSV',
    description:
      'Every order of the selected customer (every tenant without `customerId`), by id. RFC 4180, a header row, CRLF line ends, streamed as it is read; prices as exact decimals, dates ISO-8601.',
    request: { query: ScopeQuery },
    responses: { 200: { description: 'CSV attachment', content: { 'text/csv': { schema: z.string() } } } },
  },
);

export const countUnapprovedLicenseOrdersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: `${ORDERS}/getUnapprovedLicenseOrderCount`,
    operationId: 'getUnapprovedLicenseOrderCount',
    tags,
    summary: 'How many licence orders await approval',
    description:
      'A bare integer: the unapproved orders of the caller’s scope (ADMIN: every tenant, or the one selected; a network owner’s OWNER: its network; everyone else: the own customer).',
    request: { query: ScopeQuery },
    responses: { 200: { description: 'The count', ...json(UnapprovedCountSchema) } },
  },
);

export const createLicenseOrderAsCustomerRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: `${ORDERS}/createAsCustomer`,
    operationId: 'createLicenseOrderAsCustomer',
    tags,
    summary: 'Order licences (unapproved until an ADMIN approves)',
    description:
      'For the caller’s customer, or a member customer a network owner selects with `customerId` (ADMIN: `customerId` required). With `licensePackageId` the order takes the package’s type, pay type, recurrence and price; an unknown package answers 404 `licensePackage.error.notFound`. `soldByUser` is the caller.',
    request: { query: ScopeQuery, body: { required: true, ...json(LicenseOrderCustomerCreateSchema) } },
    responses: { 201: orderResponse('The order, unapproved') },
  },
  { notResourceIds: { 'body.licensePackageId': PACKAGE_ID_REASON } },
);

export const createLicenseOrderRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'scoped' },
  {
    method: 'post',
    path: ORDERS,
    operationId: 'createLicenseOrder',
    tags,
    summary: 'Create a licence order (ADMIN; may pre-approve)',
    description:
      '`customerId` names the customer (required). With `licensePackageId` the package’s type, pay type, recurrence, price and currency are used; an unknown package answers 404 `licensePackage.error.notFound`.',
    request: { query: ScopeQuery, body: { required: true, ...json(LicenseOrderCreateSchema) } },
    responses: { 201: orderResponse('The created order') },
  },
);

export const updateLicenseOrderRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'scoped' },
  {
    method: 'put',
    path: `${ORDERS}/{id}`,
    operationId: 'updateLicenseOrder',
    tags,
    summary: 'Change or approve a licence order (partial)',
    description: `\`approved: true\` approves it (sets \`approveDate\` and \`approvedByUser\`). ${scopeNote}`,
    request: { params: IdParams('The licence order'), query: ScopeQuery, body: { required: true, ...json(LicenseOrderUpdateSchema) } },
    responses: { 200: orderResponse('The order afterwards'), ...conflictError },
  },
  byOrderId,
);

export const deleteLicenseOrderRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'delete',
    path: `${ORDERS}/{id}`,
    operationId: 'deleteLicenseOrder',
    tags,
    summary: 'Delete a licence order',
    description: `ADMIN any order; an OWNER its unapproved ones (403 \`licenseOrder.error.approvedDeleteForbidden\`). Refused while devices hold its licences (409 \`licenseOrder.error.inUse\`, \`details.assignedDeviceCount\`). ${scopeNote}`,
    request: { params: IdParams('The licence order'), query: ScopeQuery },
    responses: { 204: { description: 'Deleted' }, ...conflictError },
  },
  byOrderId,
);

// ---------------------------------------------------------------------------------------------------------------
// Dashboard

export const getLicenseDashboardRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/customer/{customerId}/license/dashboard',
    operationId: 'getLicenseDashboard',
    tags,
    summary: "A customer's licence dashboard",
    description:
      'Licences of the approved orders, in total and per type: ordered, assigned (held by the customer’s devices) and free; the customer’s devices by `licenseStatus`; its connected devices (`activeBrowserSessionCount`) against `deviceSessionLimit` (`browserSessionLimit`, 0 = unlimited); its free licences and the devices using them. Unapproved orders count nowhere. ADMIN any customer, a network owner’s OWNER its members and itself, everyone else the own customer; another answers 404 `customer.error.notFound`, like a missing one.',
    request: { params: CustomerParams },
    responses: {
      200: { description: 'The dashboard', ...json(LicenseDashboardSchema) },
      404: { ...notFoundError[404], description: 'No such customer, or one outside the caller’s scope (`customer.error.notFound`)' },
    },
  },
  { resourceIds: { 'path.customerId': 'customer' } },
);
