import { defineRoute, type IdExemptions } from '@/server/http/route';
import { COMMANDS } from './device-commands';
import { z } from '@hono/zod-openapi';
import {
  commandBodies,
  commandParams,
  COMMAND_HISTORY_SIZE,
  CommandResultSchema,
  DeviceCommandEntrySchema,
  DeviceSettingsSchema,
  type CommandName,
} from './device-commands.schemas';
import { customerIdParam, json } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { batchQuery } from './devices.routes';

/** One route per batch command (spec 3): POST sets or sends it, DELETE removes a setting where the spec allows. */

const tags = ['Device commands'];
const DESCRIPTION =
  '`customerId` names the one tenant; `search` which devices (every device of the tenant when absent); `applyOn` what the search targets. ' +
  "Devices the caller's teams give read-only access to are left alone. Answers how many devices the command reached.";

/** Id-like parameters of commands that name no resource the id sweep could look up, with why (route option `notResourceIds`). */
const notResourceIds: Partial<Record<CommandName, IdExemptions>> = {
  datasource: {
    'query.datasourceId': 'datasources arrive with their issue; until then the id is stored as the devices’ binding, checked then',
  },
  dataRowId: { 'query.dataRowId': 'a row key inside the bound datasource, not a resource of its own' },
};

/**
 * Commands that take another resource's id, the kind the id sweep fills it with, and why some answer like a missing
 * id: spec 5 §6 refuses every order that has no licence to give (missing, another tenant's, unapproved, full) alike.
 */
const LICENCE_ORDER_LIKE_MISSING = {
  'query.licenseOrderId':
    'any order without a free licence of this customer, another tenant’s too, answers 409 license.error.noFreeLicense',
} as const;

function commandRoute(name: CommandName, method: 'post' | 'delete') {
  const definition = COMMANDS[name];
  const body = method === 'post' && name in commandBodies ? commandBodies[name as keyof typeof commandBodies] : undefined;
  const contentParam = name === 'assignContent' || name === 'cacheContent';

  return defineRoute(
    { minRole: definition.minRole, tenant: 'scoped' },
    {
      method,
      path: `/api/v2/device/${name}`,
      operationId: `${method === 'post' ? '' : 'remove'}${method === 'post' ? name : name.charAt(0).toUpperCase() + name.slice(1)}Devices`,
      tags,
      summary: method === 'post' ? definition.summary : `Remove the ${name} setting`,
      description: DESCRIPTION,
      request: {
        query: method === 'post' ? batchQuery.merge(commandParams[name]) : batchQuery,
        ...(body ? { body: { required: name !== 'clearCache', ...json(body) } } : {}),
      },
      responses: {
        200: { description: 'How many devices it reached', ...json(CommandResultSchema) },
        // license.error.noFreeLicense (spec 5 §6).
        ...(name === 'updateLicense' && method === 'post' ? conflictError : {}),
      },
    },
    {
      ...(contentParam && method === 'post' ? { resourceIds: { 'query.contentId': 'deviceContent' } } : {}),
      ...(name === 'updateLicense' && method === 'post'
        ? { resourceIds: { 'query.licenseOrderId': 'licenseOrder' }, answersLikeMissing: LICENCE_ORDER_LIKE_MISSING }
        : {}),
      ...(method === 'post' ? { notResourceIds: notResourceIds[name] } : {}),
    },
  );
}

export const commandRoutes = (Object.keys(COMMANDS) as CommandName[]).flatMap((name) => [
  { name, remove: false, route: commandRoute(name, 'post') },
  ...(COMMANDS[name].deletable ? [{ name, remove: true, route: commandRoute(name, 'delete') }] : []),
]);

const deviceRequest = {
  params: z.object({
    id: z
      .string()
      .uuid()
      .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
  }),
  query: z.object({ customerId: customerIdParam }),
};

export const deviceCommandHistoryRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device/{id}/commands',
    operationId: 'getDeviceCommands',
    tags,
    summary: "The device's newest commands and what became of them",
    description: `The ${COMMAND_HISTORY_SIZE} newest commands, newest first, state-setting ones (volume, display, emergency, …) included: pending (not yet sent), delivered (sent, not acknowledged), acknowledged, failed (acknowledged with ok=false) or expired.`,
    request: deviceRequest,
    responses: { 200: { description: 'The commands', ...json(z.array(DeviceCommandEntrySchema)) } },
  },
  { resourceIds: { 'path.id': 'device' } },
);

export const deviceSettingsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device/{id}/settings',
    operationId: 'getDeviceSettings',
    tags,
    summary: "The device's settings and whether the device confirmed them",
    description:
      "The values the state-setting commands set (the manifest's `settings`; a key absent was never set, the device uses its own) and the emergency status, " +
      'with the newest command of each state-setting name: a value whose command is not acknowledged yet has not reached the device.',
    request: deviceRequest,
    responses: { 200: { description: 'The settings', ...json(DeviceSettingsSchema) } },
  },
  { resourceIds: { 'path.id': 'device' } },
);
