// TEMPORARY (replaced when the devices, datasources and campaigns verbs land in this branch): the shapes of those verbs.
import type { ServiceContext } from '@/server/context/service-context';
import { ValidationError } from '@/server/errors';
import type { ExecutionActor } from './webhooks.table';

type Outcome = Promise<{ affected: number; detail?: string }>;
export type DeviceActionTarget =
  { kind: 'devices'; deviceIds: string[] } | { kind: 'tags'; tags: string[] } | { kind: 'folders'; folderIds: string[] } | { kind: 'all' };
export type DeviceActionEffect = { name: string; [key: string]: unknown };
const pending = (): never => {
  throw new ValidationError('webhook.error.unknownAction', 'Not available yet');
};
export const runDeviceAction = (
  _ctx: ServiceContext<ExecutionActor>,
  _input: { target: DeviceActionTarget; effect: DeviceActionEffect },
): Outcome => pending();
