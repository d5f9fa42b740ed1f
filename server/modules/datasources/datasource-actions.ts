import { and, not } from 'drizzle-orm';
import type { Actor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import { afterCommit, withTransaction } from '@/server/db/transaction';
import { ValidationError } from '@/server/errors';
import { readOnlyExpression, teamAccessCondition } from '@/server/modules/teams';
import { writeDocument } from './datasource-data.service';
import { applyDocumentAction, type DocumentAction } from './datasource-document-actions';
import { makeRefreshDue, wakeRefreshers } from './datasource-refresh';
import { refreshRefusal } from './datasource-refresh.service';
import * as q from './datasources.queries';
import { ENTITY, writableDatasource } from './datasources.service';
import { datasources, type DatasourceRow } from './datasources.table';

/**
 * A datasource webhook action (spec 3 "Webhook action"), as the webhooks module hands it over with the trigger's
 * payload already read: REFRESH_DATASOURCE is `refresh`; the others change an internal datasource's document
 * (spec 5 §2 "Internal data"; the rules in datasource-document-actions.ts and README.md "Decisions").
 */
export type DatasourceActionOp = { op: 'refresh' } | DocumentAction;

/** What an action did: how many datasources it changed (or made due), and what in words. */
type DatasourceActionOutcome = { affected: number; detail?: string };

/**
 * The actor's scope: a webhook key (or a device) acts in its own customer only, whatever scope the context carries;
 * a user or the system in the context's scope.
 */
function actionContext(ctx: ServiceContext<Actor>): Pick<ServiceContext<Actor>, 'actor' | 'scope' | 'requestId'> {
  const { actor } = ctx;
  const scope = actor.kind === 'apiKey' || actor.kind === 'device' ? customerScope(actor.customerId) : ctx.scope;

  return { actor, scope, requestId: ctx.requestId };
}

const ACTION_NAMES: Record<DatasourceActionOp['op'], string> = {
  refresh: 'REFRESH_DATASOURCE',
  set: 'SET_INTERNAL_DATASOURCE',
  merge: 'MERGE_INTERNAL_DATASOURCE',
  increase: 'INCREASE_VALUE_IN_DATASOURCE',
  decrease: 'DECREASE_VALUE_IN_DATASOURCE',
  insertCap: 'INSERT_CAP_DATASOURCE',
  clearCap: 'CLEAR_CAP_DATASOURCE',
  deleteByKey: 'DELETE_BY_KEY_INTERNAL_DATASOURCE',
  insertToArray: 'INSERT_TO_ARRAY_INTERNAL_DATASOURCE',
  removeFromArray: 'REMOVE_FROM_ARRAY_INTERNAL_DATASOURCE',
  emptyArray: 'EMPTY_ARRAY_INTERNAL_DATASOURCE',
  rotateArray: 'ROTATE_ARRAY_INTERNAL_DATASOURCE',
  replaceOrMergeElement: 'REPLACE_OR_MERGE_ELEMENT_IN_ARRAY_INTERNAL_DATASOURCE',
};

/**
 * Runs one datasource action for `ctx.actor` (a webhook API key: no role is checked, its scope is the permission)
 * inside `ctx.db`'s transaction, joined when one is open. The datasource must be the actor's customer's and
 * writable through its teams (otherwise 404 like an unknown id, or 403 through read-only teams). A document change
 * locks the row, reads, changes and stores through the path of PUT /data (structure, 1 MiB, hash,
 * `datasourceChanged` at commit, an audit entry naming the key). `affected` is 1 when the document changed or the
 * refresh was made due, 0 when the action found nothing to change.
 */
export async function runDatasourceAction(
  ctx: ServiceContext<Actor>,
  input: { datasourceId: string; action: DatasourceActionOp },
): Promise<DatasourceActionOutcome> {
  const caller = actionContext(ctx);
  const { action } = input;

  return withTransaction(ctx.db, async (tx) => {
    const row = await writableDatasource(tx, caller, input.datasourceId);
    if (action.op === 'refresh') {
      const refusal = refreshRefusal(row);
      if (refusal) throw new ValidationError(refusal.key, `${ACTION_NAMES.refresh}: ${refusal.message}`, { id: row.id });
      await makeRefreshDue(tx, row.id);

      return { affected: 1, detail: `refresh of '${row.name}' is due now` };
    }
    assertInternal(row, action.op);
    let detail = '';
    const written = await writeDocument(tx, {
      row,
      author: caller,
      change: (document) => {
        const result = applyDocumentAction(document, action, { structureType: row.structureType, now: Date.now() });
        detail = result.detail;

        return result.document;
      },
      describe: auditMessage(row, action),
    });

    return { affected: written.changed ? 1 : 0, detail: written.changed ? detail : `${detail} (no change)` };
  });
}

/**
 * REFRESH_DATASOURCE_ALL: every active (not deactivated) external datasource of the actor's customer that its teams
 * let it write is made due now; the refresh tick fetches them outside this transaction, this process's refreshers
 * woken at commit. `affected`: how many.
 */
export async function requestRefreshOfAllDatasources(ctx: ServiceContext<Actor>): Promise<{ affected: number }> {
  const caller = actionContext(ctx);
  if (caller.scope.kind !== 'customer')
    throw new ValidationError('request.error.customerIdRequired', 'Refreshing all datasources needs one customer');
  const customerId = caller.scope.customerId;
  const visible = teamAccessCondition(caller, ENTITY, datasources.id);
  const writable = visible && and(visible, not(readOnlyExpression(caller, ENTITY, datasources.id)));

  return withTransaction(ctx.db, async (tx) => {
    const affected = await q.makeRefreshesDue(tx, { customerId, writable, now: new Date() });
    if (affected > 0) afterCommit(tx, wakeRefreshers);

    return { affected };
  });
}

function assertInternal(row: DatasourceRow, op: DocumentAction['op']): void {
  if (row.sourceType !== 'INTERNAL')
    throw new ValidationError(
      'datasource.error.notInternal',
      `${ACTION_NAMES[op]} writes only to an INTERNAL datasource; '${row.name}' is ${row.sourceType} (its data comes from ${row.sourceType === 'EXTERNAL' ? 'its refreshes' : 'the service'})`,
      { id: row.id, sourceType: row.sourceType },
    );
}

/** The audit message: the action and, where it has one, the key it changed. */
function auditMessage(row: DatasourceRow, action: DocumentAction): string {
  const keySelector = 'keySelector' in action && typeof action.keySelector === 'string' ? action.keySelector.trim() : '';
  const key = keySelector === '' ? '' : ` at '${keySelector.length > 200 ? `${keySelector.slice(0, 199)}…` : keySelector}'`;

  return `Datasource '${row.name}': ${ACTION_NAMES[action.op]}${key} (webhook action)`;
}
