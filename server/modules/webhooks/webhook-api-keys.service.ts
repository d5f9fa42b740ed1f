import { eq } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import { signWebhookKeyJwt } from '@/server/auth/jwt';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { NotFoundError } from '@/server/errors';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import {
  assertWritable,
  modifyTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  teamAccessCondition,
  teamAccessListOf,
  type TeamModification,
} from '@/server/modules/teams';
import { findPage, type ListInput } from '@/server/query';
import * as q from './webhooks.queries';
import { webhookApiKeyResource } from './webhooks.resource';
import type { WebhookApiKey, WebhookApiKeyCreate, WebhookApiKeyUpdate } from './webhooks.schemas';
import { webhookApiKeys, type WebhookApiKeyRow } from './webhooks.table';

const ENTITY = 'webhookApiKey';
const auditKey = auditOf(ENTITY, (row: WebhookApiKeyRow) => ({ entityId: row.id, entityName: row.name, customerId: row.customerId }));

/** GET /api/webhooks/apikey: the keys the caller sees, newest first; never a token. */
export async function listWebhookApiKeys(ctx: ServiceContext, input: ListInput) {
  return findPage<WebhookApiKey>(ctx.db, {
    resource: webhookApiKeyResource,
    scope: ctx.scope,
    where: [teamAccessCondition(ctx, ENTITY, webhookApiKeys.id)],
    extraColumns: readOnlyColumn(ctx, ENTITY, webhookApiKeys.id, { select: undefined, always: true }),
    ...input,
    sort: input.sort.length > 0 ? input.sort : ['createdAt,desc'],
  });
}

/** POST /api/webhooks/apikey: the key with its token, once (DECISIONS §5: a JWT whose `jti` is the key's id). */
export async function createWebhookApiKey(
  ctx: ServiceContext,
  input: { body: WebhookApiKeyCreate; teamIds?: string },
): Promise<WebhookApiKey & { token: string }> {
  const { body } = input;
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return withTransaction(ctx.db, async (tx) => {
    const row = await q.insertApiKey(tx, {
      id: uuidv4(),
      customerId,
      name: body.name,
      restricted: body.restricted ?? false,
      scopes: ['WEBHOOK_CALL'],
    });
    const grants = [
      ...parseTeamIdsParam(input.teamIds),
      ...(body.teamAccessList?.teams ?? []).map((t) => ({ teamId: t.id.toLowerCase(), readOnly: t.readOnly })),
    ];
    if (grants.length > 0) await modifyTeams(tx, ctx, ENTITY, row.id, { assignToTeams: grants });
    await auditKey(tx, ctx, row, 'create', `Webhook API key '${row.name}' created`, { name: row.name, restricted: row.restricted });
    const token = await signWebhookKeyJwt({ jti: row.id, customer_id: customerId, scope: row.scopes });

    return { ...(await readKey(tx, ctx, row.id))!, token };
  });
}

/** PUT /api/webhooks/apikey/{id}: name, restricted and (replacing them) the teams; omitted or null keep their value. */
export async function updateWebhookApiKey(ctx: ServiceContext, input: { id: string; body: WebhookApiKeyUpdate }): Promise<WebhookApiKey> {
  const { body } = input;

  return withTransaction(ctx.db, async (tx) => {
    const row = await writableKey(tx, ctx, input.id);
    const values: Partial<WebhookApiKeyRow> = {
      ...(body.name != null && { name: body.name }),
      ...(body.restricted != null && { restricted: body.restricted }),
    };
    const changes = diffFields(row, values);
    if (Object.keys(changes).length > 0) await q.updateApiKey(tx, row, values);
    if (body.teamAccessList != null) {
      const current = await teamAccessListOf(tx, ENTITY, row.id, row.customerId);
      const wanted = body.teamAccessList.teams.map((t) => ({ teamId: t.id.toLowerCase(), readOnly: t.readOnly }));
      await modifyTeams(tx, ctx, ENTITY, row.id, {
        assignToTeams: wanted,
        removeFromTeamIds: current.teams.map((t) => t.id).filter((id) => !wanted.some((w) => w.teamId === id)),
      });
    }
    if (Object.keys(changes).length > 0) {
      const name = values.name ?? row.name;
      await auditKey(tx, ctx, { ...row, name }, 'update', `Webhook API key '${name}' updated: ${Object.keys(changes).join(', ')}`, changes);
    }

    return (await readKey(tx, ctx, row.id))!;
  });
}

/** DELETE /api/webhooks/apikey/{id}: revokes the key at once on every instance (each trigger reads its row). */
export async function deleteWebhookApiKey(ctx: ServiceContext, input: { id: string }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableKey(tx, ctx, input.id);
    await q.deleteApiKey(tx, row);
    await auditKey(tx, ctx, row, 'delete', `Webhook API key '${row.name}' deleted (revoked)`);
  });
}

/** POST /api/webhooks/apikey/{webhookApiKeyId}/updateTeamAssignments (OWNER; DECISIONS §6). */
export async function updateWebhookApiKeyTeams(ctx: ServiceContext, input: { id: string; body: TeamModification }) {
  return withTransaction(ctx.db, (tx) => modifyTeams(tx, ctx, ENTITY, input.id, input.body));
}

async function readKey(db: Executor, ctx: ServiceContext, id: string): Promise<WebhookApiKey | undefined> {
  const page = await findPage<WebhookApiKey>(db, {
    resource: webhookApiKeyResource,
    scope: ctx.scope,
    where: [eq(webhookApiKeys.id, id)],
    extraColumns: readOnlyColumn(ctx, ENTITY, webhookApiKeys.id, { select: undefined, always: true }),
    size: '1',
  });

  return page.content[0];
}

/** The key (locked) when the caller may change it: 404 when invisible, 403 through read-only teams. */
async function writableKey(tx: Executor, ctx: ServiceContext, id: string): Promise<WebhookApiKeyRow> {
  const row = await q.lockApiKey(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  await assertWritable(tx, ctx, ENTITY, row.id);

  return row;
}
