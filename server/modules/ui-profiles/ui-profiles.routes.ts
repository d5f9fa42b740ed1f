import { z } from '@hono/zod-openapi';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { customerIdParam, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { UiProfileAssignSchema, UiProfileCreateSchema, UiProfileSchema, UiProfileUpdateSchema } from './ui-profiles.schemas';

const BASE = '/api/v2/userInterfaceProfile';
const tags = ['UI profiles'];
const IdParams = z.object({ id: intIdParam.openapi({ param: { name: 'id', in: 'path' }, description: 'The UI profile' }) });
const ScopeQuery = z.object({ customerId: customerIdParam });
const profileResponse = (description: string) => ({ description, ...json(UiProfileSchema) });

export const listUiProfilesRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: BASE,
    operationId: 'listUserInterfaceProfiles',
    tags,
    summary: 'UI profiles of the selected tenant(s), paged',
    request: { query: ScopedListQuerySchema },
    responses: { 200: { description: 'A page of UI profiles', ...json(pageOf(UiProfileSchema, 'UserInterfaceProfilePage')) } },
  },
);

export const getUiProfileRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: `${BASE}/{id}`,
    operationId: 'getUserInterfaceProfile',
    tags,
    summary: 'One UI profile',
    description: 'Users read their own profile through `GET /api/v2/user/me?select=userInterfaceProfile(*)`.',
    request: { params: IdParams, query: ScopeQuery.extend({ select: z.string().optional() }) },
    responses: { 200: profileResponse('The UI profile') },
  },
  { resourceIds: { 'path.id': 'uiProfile' } },
);

export const createUiProfileRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: BASE,
    operationId: 'createUserInterfaceProfile',
    tags,
    summary: 'Create a UI profile in the selected customer (default: the own)',
    request: { query: ScopeQuery, body: { required: true, ...json(UiProfileCreateSchema) } },
    responses: { 201: profileResponse('The created UI profile'), ...conflictError },
  },
);

export const updateUiProfileRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'put',
    path: `${BASE}/{id}`,
    operationId: 'updateUserInterfaceProfile',
    tags,
    summary: 'Update a UI profile',
    description: 'Omitting `hiddenUIElementRules` keeps the document; sending it replaces the whole document.',
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(UiProfileUpdateSchema) } },
    responses: { 200: profileResponse('The updated UI profile'), ...conflictError },
  },
  { resourceIds: { 'path.id': 'uiProfile' } },
);

export const assignUiProfileRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: `${BASE}/{id}/assign`,
    operationId: 'assignUserInterfaceProfile',
    tags,
    summary: 'Assign the profile to users and remove it from others',
    description:
      "Every user must belong to the profile's customer (else 400). A user has at most one profile: assigning replaces the previous one.",
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(UiProfileAssignSchema) } },
    responses: { 200: profileResponse('The UI profile') },
  },
  {
    resourceIds: { 'path.id': 'uiProfile', 'body.assignUserIds[]': 'user', 'body.removeUserIds[]': 'user' },
    answersLikeMissing: {
      'body.assignUserIds[]': '400 userNotInTenant names the ids that are not the profile tenant’s users (ui-profiles.api.test.ts)',
      'body.removeUserIds[]': '400 userNotInTenant names the ids that are not the profile tenant’s users (ui-profiles.api.test.ts)',
    },
  },
);

export const deleteUiProfileRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'delete',
    path: `${BASE}/{id}`,
    operationId: 'deleteUserInterfaceProfile',
    tags,
    summary: 'Delete a UI profile; its users fall back to no profile',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' } },
  },
  { resourceIds: { 'path.id': 'uiProfile' } },
);
