import { defineRoute } from '@/server/http/route';
import { pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { securedErrors } from '@/server/http/responses';
import { UserSchema } from './users.schemas';

export const getMeRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/v2/user/me',
    operationId: 'getCurrentUser',
    tags: ['Users'],
    summary: 'The signed-in user',
    request: { query: SelectQuerySchema },
    responses: { 200: { description: 'The signed-in user', content: { 'application/json': { schema: UserSchema } } }, ...securedErrors },
  },
);

export const listUsersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/user',
    operationId: 'listUsers',
    tags: ['Users'],
    summary: 'Users of the selected tenant(s), paged',
    request: { query: ScopedListQuerySchema },
    responses: { 200: { description: 'A page of users', content: { 'application/json': { schema: pageOf(UserSchema, 'UserPage') } } }, ...securedErrors },
  },
);
