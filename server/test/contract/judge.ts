import { declaresStatus, type Operation } from './operations';
import type { Verdict } from './schema-validator';

/**
 * The contract, as rules over one request and its answer (docs/decisions.md "Contract fuzz test"):
 *
 * 1. No answer is a 5xx (a declared 503 of the readiness check aside).
 * 2. Every status answered is declared by the operation.
 * 3. A request the document calls valid, sent with a credential the operation admits, is refused only for
 *    a reason no schema can state: who calls (403), what exists (404), the state of things (409), the
 *    rate (429), a byte range past the end (416), or a 400 whose key names a rule of meaning listed in
 *    `SEMANTIC_400` (the query languages, resource limits, credentials that do not match, relations
 *    between values or resources). A 401 refuses a credential: legitimate where the request carries one
 *    as input (a `token` parameter: signed URLs and links; the OAuth endpoints' client authentication),
 *    otherwise the runner checks the caller still works before calling it a failure. Any other 400
 *    (`request.error.invalid` above all) enforces a rule the schema does not state.
 * 4. A request the document calls invalid is never accepted (2xx) when its credential is admitted (a
 *    refused credential answers before the input is read, so it says nothing about the input). A batch whose
 *    answer lists the invalid item in `rejected` (proof of play refuses each bad event on its own) refused it.
 */

export type FailureKind = 'server error' | 'undeclared status' | 'valid input refused' | 'invalid input accepted';

export type Judgement = { kind: FailureKind; signature: string };

/**
 * 400 keys a schema-valid request may get: rules about meaning, not shape. `*` ends a prefix.
 * Each with why a JSON Schema cannot state it.
 */
const SEMANTIC_400: Record<string, string> = {
  // The query languages (DECISIONS §4): plain strings with a description and an example.
  'search.error.*': 'the search language: fields, operators and values checked against the resource',
  'datasource.error.invalidCron': 'the cron language of a datasource’s refresh times: each field’s values, ranges and names',
  'datasource.error.unsupportedType':
    'a datasource `type` or `systemDatasourceType` this service does not fetch (spec 5 §2: 400 naming it)',
  'datasource.error.invalidDocument': 'a data document that does not fit the datasource’s stored `structureType`',
  'datasource.error.invalidKey': 'a `set` key (dot path or JSONPath) that names no single place in the stored document',
  'advertiser.error.invalidCron':
    "the cron language of an advertiser's validity: each field's values, ranges and names (its shape is a pattern)",
  'select.error.*': 'the select language: field names of the resource',
  'sort.error.unknownField': 'sort field names of the resource (the shape of `sort` is a pattern to state)',
  // The state of the tenant.
  'resourceLimit.error.limitReached': 'a tenant at its resource limit (DECISIONS §3)',
  // Credentials in the input that do not match.
  invalid_grant: 'the token endpoint: a password, refresh token or code that does not match (RFC 6749)',
  'user.error.oldPasswordInvalid': 'the current password does not match',
  'user.error.totpInvalid': 'a one-time code that does not match the secret',
  unauthorized_client: 'the token endpoint: a grant the authenticated client may not use (RFC 6749)',
  // Requirements that depend on who calls (OpenAPI cannot make a parameter required for one role).
  'request.error.customerIdRequired': 'an ADMIN names the one tenant a batch acts on',
  'log.error.customerIdRequired': 'an ADMIN names the tenant (or -1) whose log it reads',
  // Ids that name nothing the caller may use, answered like a missing id (the resource-id sweep's exception).
  'userInterfaceProfile.error.userNotInTenant': 'user ids that are not the tenant’s users',
  'quickFilter.error.unknownFolder': 'a folder id that names no folder of the tenant',
  'user.error.authProviderImmutable':
    'a user keeps the authProvider it was created with (updateUser description): a value other than the stored one',
  // The state of another resource the request names.
  'alertRule.error.typeImmutable': 'a PUT that changes the `@type` of a stored alert rule (updateAlertRule description)',
  'user.error.noPendingSecret': 'no second-factor secret waits for confirmation',
  'quickFilter.error.typeMismatch': 'a quick filter of another entity type than the place it is used',
  'quickFilter.error.wrongType': 'a quick filter of another entity type than the list it filters',
  'quickFilter.error.immutableType': 'a quick filter keeps its entity type',
  'customer.error.notSubreseller': 'the named network owner is not one',
  'customer.error.nestedNetwork': 'a network owner cannot be a member of a network',
  // Relations between several values, with a key of their own (no OpenAPI schema states them for parameters).
  'request.error.invalidCombination':
    'a rule between several values of one request, worded in the schema descriptions (server/http/wire.schemas.ts)',
  'userInterfaceProfile.error.assignAndRemove': 'one user id in both lists',
  'file.error.replaceWithItself': 'a file replaced by itself',
  'customer.error.moveToItself': 'a customer moved into itself',
  'proofOfDisplay.error.windowTooLong': '`from` and `to` further apart than a report covers',
  'upload.error.invalidChunkCount':
    '`size` split into `totalChunks` chunks of ceil(size / totalChunks) bytes leaves a non-empty last one (initUpload description)',
  'file.error.invalidValidity': '`validFrom` after `validTo`, the stored one included when a request sets only one',
  'user.error.customerIdRequired': 'an ADMIN names the tenant a new user joins',
  'user.error.trustedAdminNotAdmin': '`trustedAdmin` only with role ADMIN (UserCreate description)',
  'user.error.passwordNotLocal': 'a password only for a LOCAL user (UserCreate description)',
  'user.error.passwordRequired': 'a password unless the user signs in by SSO only (UserCreate description)',
  'user.error.ownerInTeam': 'no team for an OWNER or ADMIN (UserCreate description)',
  'user.error.totpRequired': 'enabling two-factor sign-in needs the code of the new secret',
  invalid_request: 'the token endpoint: the parameters each grant type needs (RFC 6749 §4)',
  'webhookAction.error.targetRequired': 'an action type that acts on targets, created without any (WebhookActionCreate description)',
  'webhook.error.eventIdRequired': 'a trigger names its event id in the payload or the query (triggerWebhook description)',
  'webhook.error.payload': 'a trigger payload that is not a JSON object (the GET form: Base64 of one), or unreadable XML',
  // What the server is configured to do.
  'notificationChannel.error.smsNotConfigured': 'SMS channels only where the server has SMS delivery configured (`SMS_WEBHOOK_URL`)',
  'notificationChannel.error.unknownUser':
    'USER_NOTIFICATION `notify` names users of the tenant: ids of existing users, which a schema cannot know',
  // The state of another resource the request names.
  'campaign.error.quickFilterType': 'a quick filter of another entity type than the field that names it',
  'calendarEvent.error.invalidEnd':
    'a new end of a stored event: after its stored start, at most 366 days later (endCalendarEvent and extendCalendarEvent descriptions)',
};

/** Statuses a schema-valid request may be refused with, whatever the key. */
const LEGITIMATE_STATUSES = new Set([403, 404, 409, 416, 429]);

function isSemantic400(key: string | undefined): boolean {
  if (!key) return false;

  return Object.keys(SEMANTIC_400).some((rule) => (rule.endsWith('*') ? key.startsWith(rule.slice(0, -1)) : key === rule));
}

/** `rejected`: the indexes of the items a batch operation refused one by one while it accepted the rest (proof of play). */
export type Answer = { status: number; key?: string; target?: string; issuePath?: string; rejected?: number[] };

/** How the request was sent: whether its credential is one the operation admits, and which it was. */
export type Sent = { admitted: boolean; credential: string; carriesCredential: boolean };

/** Credentials that are broken on purpose: a 5xx they cause is one defect, whatever the operation. */
const HOSTILE_CREDENTIALS = new Set(['malformed-cookie', 'unknown-bearer', 'not-bearer', 'wrong-basic']);

/** The failures of one exchange (none when it keeps the contract). */
export function judge(operation: Operation, verdict: Verdict, sent: Sent, answer: Answer): Judgement[] {
  const { status, key } = answer;
  const shown = `${status}${key ? ` ${key}` : ''}`;
  if (status >= 500 && (status === 500 || !declaresStatus(operation, status))) {
    return [
      { kind: 'server error', signature: HOSTILE_CREDENTIALS.has(sent.credential) ? `${shown} (credential: ${sent.credential})` : shown },
    ];
  }
  const out: Judgement[] = [];
  if (!declaresStatus(operation, status)) out.push({ kind: 'undeclared status', signature: shown });
  if (!sent.admitted) return out;
  const legitimate =
    LEGITIMATE_STATUSES.has(status) || (status === 400 && isSemantic400(key)) || (status === 401 && sent.carriesCredential);
  if (verdict.valid === true && status >= 400 && !legitimate) {
    const where = answer.target ? ` (${answer.target}${answer.issuePath ? ` ${answer.issuePath}` : ''})` : '';
    out.push({ kind: 'valid input refused', signature: `${shown}${where}` });
  }
  const invalidItem = verdict.valid === false ? /^body\/(\d+)(\/|$)/.exec(verdict.path) : null;
  const refusedItem = invalidItem !== null && (answer.rejected ?? []).includes(Number(invalidItem[1]));
  if (verdict.valid === false && status >= 200 && status < 300 && !refusedItem) {
    out.push({
      kind: 'invalid input accepted',
      signature: `${verdict.path.replace(/\/\d+(?=\/|$)/g, '[]').replace(/\//g, '.')}: ${verdict.keyword}`,
    });
  }

  return out;
}
