import type { Context } from 'hono';
import { clientAddress } from '@/server/http/client-address';
import type { AppEnv } from '@/server/http/context';
import { deviceContext, serviceContext } from '@/server/http/service-context';
import type { DatasourceWriter } from './datasource-data.service';

/**
 * Who calls a public datasource write (`set`, `merge`, the calendar events): the device, the user, or nobody
 * (identifyCaller set at most one of them). Nobody comes with the client address its writes are counted by.
 */
export function writerOf(c: Context<AppEnv>): DatasourceWriter {
  if (c.var.device) return { kind: 'device', ctx: deviceContext(c) };
  if (c.var.actor?.kind === 'user') return { kind: 'user', ctx: serviceContext(c) };
  const { db, config } = c.var.deps;

  return { kind: 'anonymous', db, config, log: c.var.log, requestId: c.var.requestId, address: clientAddress(c) };
}
