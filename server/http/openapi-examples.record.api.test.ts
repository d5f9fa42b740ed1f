import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '@/server/modules/mail/mail.table';
import { crcOf, formOf, png } from '@/server/modules/uploads/uploads.test-kit';
import { testExecutor } from '@/server/modules/webhooks/webhooks.test-kit';
import { basic, createTestContext, TEST_CLIENT_SECRET, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { totpCodes } from '@/server/test/totp';
import type { OpenApiExamples } from './openapi-examples';
import { compareRoutes } from './route-order';
import { routeTable } from './route';

/*
 * `npm run openapi:examples` (RECORD_OPENAPI_EXAMPLES=1): runs a tenant's whole life through the API on a fresh
 * database, as a client written from the spec would, and records the first 2xx request and answer of each
 * operation into openapi-examples.json (issue 27 §3.5). Ids, instants, tokens and secrets are normalised, so a
 * run without API changes writes the same file. Skipped in the normal suite: openapi-examples.api.test.ts checks
 * the recorded file against the schemas.
 */

const OUTPUT = fileURLToPath(new URL('./openapi-examples.json', import.meta.url));
const recording = process.env.RECORD_OPENAPI_EXAMPLES === '1';

type Answer = { status: number; body: any; headers: Headers };
type Call = {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: FormData;
  raw?: { type: string; bytes: Buffer };
  headers?: Record<string, string>;
};

const recorded: OpenApiExamples = {};
const order: string[] = [];
let t: TestContext;
const started = Date.now();

/** The declared route a request goes to: of the patterns that match, the one Hono would try first (static segments first). */
function operationOf(method: string, path: string): string | undefined {
  const bare = path.split('?')[0]!.replace(/\/+$/, '');
  const candidates = routeTable.filter((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare));
  candidates.sort((a, b) =>
    compareRoutes(
      { method: a.method, path: a.path.replace(/\{([^}]+)\}/g, ':$1') },
      { method: b.method, path: b.path.replace(/\{([^}]+)\}/g, ':$1') },
    ),
  );

  return candidates[0]?.operationId;
}

/** One request through the app; its body and 2xx answer are recorded for its operation (the first time only). */
async function call(method: string, path: string, options: Call = {}, expected?: number): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  let request: { contentType: string; body: unknown } | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
    request = { contentType: 'application/json', body: options.json };
  } else if (options.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
    request = { contentType: 'application/x-www-form-urlencoded', body: options.form };
  } else if (options.multipart) {
    body = options.multipart;
  } else if (options.raw) {
    headers['content-type'] = options.raw.type;
    body = new Uint8Array(options.raw.bytes);
  }
  const res = await t.app.request(path, { method, headers, body }, { bridgeClientAddress: '192.0.2.10' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  const answer = { status: res.status, body: parsed as any, headers: res.headers };
  const shown = `${method} ${path} → ${res.status} ${text.slice(0, 500)}`;
  if (expected !== undefined) expect(res.status, shown).toBe(expected);
  else expect(res.status, shown).toBeLessThan(300);
  const operationId = operationOf(method, path);
  if (operationId && res.status < 300) {
    const entry = (recorded[operationId] ??= {});
    if (!order.includes(operationId)) order.push(operationId);
    if (request && !entry.request) entry.request = request;
    if (!entry.response && (res.headers.get('content-type') ?? '').includes('application/json') && parsed !== undefined)
      entry.response = { status: res.status, body: parsed };
  }

  return answer;
}

// --- normalisation: the same flow writes the same file ------------------------------------------------------

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Instants are written relative to this one. */
const BASE = Date.UTC(2026, 0, 12, 9, 0, 0);
const QUARTER_HOUR = 15 * 60_000;
const SECRET_KEYS = new Set([
  'access_token',
  'refresh_token',
  'jwt_access_token',
  'deviceSecret',
  'secret',
  'password',
  'oldPassword',
  'newPassword',
  'ticket',
  'otpauthUrl',
  'token',
  'etag',
  'manifestEtag',
  'totp',
]);

/** What stands for a secret or a value that differs on every run. */
function placeholder(key: string): string {
  if (key.toLowerCase().includes('password')) return 'example-password';
  if (key === 'otpauthUrl') return 'otpauth://totp/Signage:vera.viewer%40example.com?secret=EXAMPLESECRET';

  return `example-${key.replace(/_/g, '-')}-0000000000000000`;
}

function normaliser() {
  const uuids = new Map<string, string>();
  const uuid = (value: string) => {
    const key = value.toLowerCase();
    if (!uuids.has(key)) uuids.set(key, `00000000-0000-7000-8000-${String(uuids.size + 1).padStart(12, '0')}`);

    return uuids.get(key)!;
  };
  // Instants of this run (within 30 days of it) move to BASE, to the quarter hour (a run takes a few minutes); the
  // dates the flow names stay as they are.
  const nearNow = (ms: number) => Math.abs(ms - started) < 30 * 86_400_000;
  const instant = (ms: number) => (nearNow(ms) ? BASE + Math.round((ms - started) / QUARTER_HOUR) * QUARTER_HOUR : ms);
  const text = (value: string): string => {
    if (ISO.test(value)) return new Date(instant(Date.parse(value))).toISOString();
    // A report's readable period start (`yyyy-MM-dd HH:mm` in its zone), moved like the instants.
    if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value))
      return new Date(instant(Date.parse(`${value.replace(' ', 'T')}:00Z`))).toISOString().slice(0, 16).replace('T', ' ');
    if (/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) return 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJleGFtcGxlIn0.c2lnbmF0dXJl';

    if (/^\d{13}$/.test(value)) return String(instant(Number(value)));

    return value
      .replace(UUID, uuid)
      .replace(/([?&]token=)[^&"\s]+/g, '$1EXAMPLE-SIGNED-TOKEN')
      .replace(/([?&]v=)(\d{13})\b/g, (_, prefix: string, ms: string) => `${prefix}${instant(Number(ms))}`);
  };
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      if (key && SECRET_KEYS.has(key)) return placeholder(key);
      if (key === 'activationCode') return '4321';

      return text(value);
    }
    if (typeof value === 'number' && Number.isInteger(value) && value > 1_500_000_000_000 && value < 4_000_000_000_000)
      return instant(value);
    // What remains of a refresh family's 30 days, a second less when the clock ticked in between.
    if (key === 'refresh_total_validity_seconds') return 2_592_000;
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v, k)]));

    return value;
  };

  return walk;
}

// --- the flow -------------------------------------------------------------------------------------------------

describe.runIf(recording)('records the OpenAPI examples', () => {
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t?.close());

  it('runs a tenant through the API and writes openapi-examples.json', { timeout: 600_000 }, async () => {
    // The operator's super admin and a tenant with its owner (what POST /api/customer and /api/user create).
    const operator = await t.factories.customer({ name: 'Operator' });
    const adminUser = await t.factories.user({ role: 'ADMIN', customerId: operator.id, email: 'admin@example.com', name: 'Ada Admin' });
    const tokens = await call('POST', '/oauth/token', {
      headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
      form: { grant_type: 'password', username: adminUser.email, password: TEST_PASSWORD },
    });
    const admin = tokens.body.access_token as string;
    await call('POST', '/oauth/token', {
      headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
      form: { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token },
    });
    await call('GET', '/oauth/jwks');
    await call('GET', '/healthz');
    await call('GET', '/readyz');

    const customer = (
      await call(
        'POST',
        '/api/customer',
        {
          token: admin,
          json: {
            name: 'Example Corp',
            country: 'DE',
            location: 'Berlin',
            vertical: 'RETAIL',
            licenseTier: 'BUSINESS',
            supportEmail: 'support@example.com',
            // The lobby screen below takes one (FREE draws on them, spec 5 §6).
            freeLicenses: 2,
          },
        },
        201,
      )
    ).body;
    const customerId = customer.id as number;
    const q = `customerId=${customerId}`;
    await call('GET', `/api/customer/${customerId}`, { token: admin });
    await call('PUT', `/api/customer/${customerId}`, {
      token: admin,
      json: { comment: 'Flagship stores', contentDesignerEmail: 'design@example.com' },
    });
    await call('GET', '/api/customer/select?size=5', { token: admin });
    await call('GET', `/api/customer?${q}`, { token: admin });
    const network = (await call('POST', '/api/customer', { token: admin, json: { name: 'Example Network', licenseTier: 'BUSINESS' } }, 201))
      .body;
    await call('POST', `/api/customer/${network.id}/promoteAsSubreseller`, { token: admin });
    const member = (await call('POST', '/api/customer', { token: admin, json: { name: 'Example Member', licenseTier: 'STARTER' } }, 201))
      .body;
    await call('PUT', `/api/customer/${member.id}/moveToSubreseller?subresellerId=${network.id}`, { token: admin });
    await call('PUT', `/api/customer/${member.id}/moveToSubreseller`, { token: admin });
    await call('POST', `/api/customer/${network.id}/removeSubresellerPrivilege`, { token: admin });
    await call('DELETE', `/api/customer/${member.id}`, { token: admin }, 204);

    await call(
      'POST',
      `/api/user?${q}`,
      {
        token: admin,
        json: { email: 'olivia.owner@example.com', name: 'Olivia Owner', role: 'OWNER', password: TEST_PASSWORD, language: 'en' },
      },
      201,
    );
    const owner = (
      await call('POST', '/oauth/token', {
        headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
        form: { grant_type: 'password', username: 'olivia.owner@example.com', password: TEST_PASSWORD },
      })
    ).body.access_token as string;
    const ownerUserId = (await call('GET', '/api/v2/user/me', { token: owner })).body.id as string;
    await call('PUT', `/api/customer/settings/teams?${q}`, {
      token: owner,
      json: { accessResourcesWithoutTeam: true, userFullAccessIfNotInTeam: false },
    });
    await call('PUT', `/api/customer/settings/devices?${q}`, { token: owner, json: { defaultTimeZone: 'Europe/Berlin' } });
    await call('GET', `/api/customer/resourceLimits?${q}`, { token: owner });

    // Resource limits (super admin).
    await call('GET', '/api/config/limits', { token: admin });
    await call('PUT', '/api/config/batch', {
      token: admin,
      json: { configUpdates: [{ name: 'config.limit.USER.BUSINESS', value: '60' }] },
    });
    await call('DELETE', '/api/config/limits/batch?keys=config.limit.USER.BUSINESS', { token: admin }, 204);

    // Users and teams.
    const editor = (
      await call(
        'POST',
        `/api/user?${q}`,
        { token: owner, json: { email: 'eddie.editor@example.com', name: 'Eddie Editor', role: 'EDITOR', password: TEST_PASSWORD } },
        201,
      )
    ).body;
    await call('PUT', '/api/user?email=eddie.editor%40example.com', {
      token: owner,
      json: { name: 'Eddie Editor', comment: 'Content team', editorLevel: 'ADVANCED' },
    });
    await call('GET', `/api/v2/user?${q}&size=5`, { token: owner });
    await call('GET', `/api/v2/user/${editor.id}`, { token: owner });
    await call('GET', `/api/user/simple?${q}`, { token: owner });
    const team = (
      await call(
        'POST',
        `/api/team?${q}`,
        { token: owner, json: { name: 'Store Berlin', comment: 'Screens and content of the Berlin store' } },
        201,
      )
    ).body;
    await call('PUT', `/api/team?${q}&teamId=${team.id}`, { token: owner, json: { comment: 'Berlin flagship store' } });
    await call('GET', `/api/team?${q}&includeTeamUserNumber=true`, { token: owner });
    await call('POST', `/api/user/updateTeamAssignments?${q}&email=eddie.editor%40example.com`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    await call('GET', `/api/team/userAssignments?${q}&teamId=${team.id}`, { token: owner });
    await call('GET', `/api/team/user/${editor.id}/assignments?${q}`, { token: owner });
    await call('PUT', `/api/team/updateUserAssignments?${q}&teamId=${team.id}`, {
      token: owner,
      json: { resourcesToAdd: [{ id: editor.id, readOnly: false }], resourceIdsToRemove: [] },
    });
    const profile = (
      await call(
        'POST',
        `/api/v2/userInterfaceProfile?${q}`,
        {
          token: owner,
          json: { name: 'Store staff', comment: 'Hides the settings', hiddenUIElementRules: { version: 1, newUi: { settings: false } } },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/v2/userInterfaceProfile/${profile.id}?${q}`, {
      token: owner,
      json: { comment: 'Hides the settings and the audit log' },
    });
    await call('POST', `/api/v2/userInterfaceProfile/${profile.id}/assign?${q}`, { token: owner, json: { assignUserIds: [editor.id] } });
    await call('GET', `/api/v2/userInterfaceProfile?${q}`, { token: owner });
    await call('GET', `/api/v2/userInterfaceProfile/${profile.id}?${q}`, { token: owner });
    await call('POST', `/api/v2/userInterfaceProfile/${profile.id}/assign?${q}`, { token: owner, json: { removeUserIds: [editor.id] } });
    await call('DELETE', `/api/v2/userInterfaceProfile/${profile.id}?${q}`, { token: owner }, 204);

    // A user who sets a password through the e-mailed link, changes it and enrols a second factor.
    await call(
      'POST',
      `/api/user?${q}`,
      { token: owner, json: { email: 'vera.viewer@example.com', name: 'Vera Viewer', role: 'VIEWER', password: 'an initial password' } },
      201,
    );
    await call('POST', `/api/user/resendPasswordSetup?${q}&email=vera.viewer%40example.com`, { token: owner });
    await call('GET', '/api/mail/status', { token: owner });
    await call('GET', '/api/mail/outbox?size=2', { token: admin });
    await call('POST', `/api/user/passwordSetupLink?${q}&email=vera.viewer%40example.com`, { token: owner });
    await call('POST', `/api/user/resendPasswordSetup?${q}&email=vera.viewer%40example.com`, { token: owner });
    const [mail] = await t.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.to, 'vera.viewer@example.com'))
      .orderBy(desc(mailMessages.createdAt))
      .limit(1);
    const linkToken = /token=([\w-]+)/.exec(mail!.textBody)![1]!;
    await call('GET', `/public-api/user/passwordSetup?token=${linkToken}`);
    await call('POST', '/public-api/user/passwordSetup', { json: { token: linkToken, password: 'a new password 1' } });
    const viewer = (
      await call('POST', '/oauth/token', {
        headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
        form: { grant_type: 'password', username: 'vera.viewer@example.com', password: 'a new password 1' },
      })
    ).body.access_token as string;
    await call(
      'POST',
      `/api/user/password?oldPassword=${encodeURIComponent('a new password 1')}&newPassword=${encodeURIComponent('another password 2')}`,
      { token: viewer },
    );
    const viewerToken = (
      await call('POST', '/oauth/token', {
        headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
        form: { grant_type: 'password', username: 'vera.viewer@example.com', password: 'another password 2' },
      })
    ).body.access_token as string;
    const secret = (await call('POST', '/api/user/2fa/secret', { token: viewerToken })).body.secret as string;
    await call('POST', `/api/user/2fa?totp=${await totpCodes(secret).next()}&enable=true`, { token: viewerToken });
    await call('POST', '/oauth/revoke', {
      headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
      form: { token: viewerToken },
    });

    await call('POST', '/api/v2/user/profilePicture', {
      token: owner,
      multipart: formOf([{ field: 'file', name: 'me.png', data: png(64, 64), type: 'image/png' }]),
    });

    // Media: a folder, an upload, a chunked upload, tags, validity, teams.
    const fileRoot = (await call('GET', `/api/v2/fileFolder?${q}&search=${encodeURIComponent('parentId=NULL')}`, { token: owner })).body
      .content[0];
    const posters = (await call('POST', `/api/fileFolder?${q}&parentId=${fileRoot.id}&name=Posters`, { token: owner }, 201)).body;
    const uploaded = (
      await call('POST', `/api/file?${q}&parentId=${posters.id}&tags=summer,sale`, {
        token: owner,
        multipart: formOf([{ field: 'files', name: 'summer-sale.png', data: png(1920, 1080, 4_000), type: 'image/png' }]),
      })
    ).body[0];
    const chunk = png(1080, 1920, 2_000);
    const session = (
      await call('POST', `/api/v2/file/upload/init?${q}`, {
        token: owner,
        json: {
          name: 'opening-hours.png',
          size: chunk.length,
          totalChunks: 1,
          parentId: posters.id,
          tags: ['info'],
          crcChecksum: crcOf(chunk),
        },
      })
    ).body;
    await call('PUT', `/api/v2/file/upload/${session.uploadId}/part/1`, {
      token: owner,
      raw: { type: 'application/octet-stream', bytes: chunk },
    });
    await call('GET', `/api/v2/file/upload/${session.uploadId}/recover?${q}`, { token: owner });
    const hours = (await call('POST', `/api/v2/file/upload/${session.uploadId}/complete?${q}`, { token: owner })).body;
    await call('PUT', `/api/v2/file/upload/${hours.id}/thumbnail?${q}`, { token: owner, raw: { type: 'image/png', bytes: png(90, 160) } });
    const dropped = (
      await call('POST', `/api/v2/file/upload/init?${q}`, { token: owner, json: { name: 'draft.png', size: 10, totalChunks: 1 } })
    ).body;
    await call('DELETE', `/api/v2/file/upload/${dropped.uploadId}?${q}`, { token: owner }, 204);
    await call('GET', `/api/v2/file?${q}&size=2&sort=name,asc`, { token: owner });
    await call('GET', `/api/v2/file/${uploaded.id}?${q}`, { token: owner });
    await call('GET', `/api/v2/file/view/summary?${q}&folderSearch=${encodeURIComponent(`parentId=${posters.id}`)}`, { token: owner });
    await call('PUT', `/api/file/${uploaded.id}`, {
      token: owner,
      json: {
        name: 'summer-sale.png',
        tags: ['summer', 'sale', 'window'],
        validFrom: Date.UTC(2026, 5, 1),
        validTo: Date.UTC(2026, 7, 31),
      },
    });
    await call('POST', `/api/v2/file/tags/add?${q}&search=${encodeURIComponent('name~summer')}`, { token: owner, json: ['promo'] });
    await call('POST', `/api/v2/file/tags/set?${q}&search=${encodeURIComponent('name~hours')}`, {
      token: owner,
      json: ['info', 'entrance'],
    });
    await call('POST', `/api/v2/file/tags/remove?${q}&search=${encodeURIComponent('name~summer')}`, { token: owner, json: ['window'] });
    await call('POST', `/api/v2/file/validity/set?${q}&search=${encodeURIComponent('name~hours')}&validFrom=${Date.UTC(2026, 0, 1)}`, {
      token: owner,
    });
    await call('POST', `/api/file/rename?fileId=${hours.id}&newName=opening-hours-berlin.png`, { token: owner });
    await call('POST', `/api/file/updateTeamAssignments?${q}&fileId=${uploaded.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: true }] },
    });
    await call('GET', `/api/v2/file/${uploaded.id}/signedUrl?${q}&expiresIn=600`, { token: owner });
    await call('GET', `/api/v2/fileFolder/${posters.id}?${q}`, { token: owner });
    await call('GET', `/api/fileFolder/storageStatistics?${q}`, { token: owner });
    await call('GET', `/api/fileFolder/breadcrumb?${q}&folderId=${posters.id}`, { token: owner });
    const archive = (await call('POST', `/api/fileFolder?${q}&parentId=${fileRoot.id}&name=Archive`, { token: owner }, 201)).body;
    await call('POST', `/api/fileFolder/rename?${q}&folderId=${archive.id}&newName=Archive%202025`, { token: owner });
    await call('PUT', `/api/fileFolder/setCleanupOutdatedFiles?${q}&folderId=${archive.id}&cleanupOutdatedFiles=true`, { token: owner });
    await call('POST', `/api/fileFolder/updateTeamAssignments?${q}&fileFolderId=${posters.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    const old = (
      await call('POST', `/api/file?${q}&parentId=${fileRoot.id}`, {
        token: owner,
        multipart: formOf([{ field: 'files', name: 'winter-sale.png', data: png(1920, 1080, 3_000), type: 'image/png' }]),
      })
    ).body[0];
    await call('POST', `/api/fileFolder/moveBatchToFolder?${q}`, {
      token: owner,
      json: { fileIds: [old.id], folderIds: [], targetFolder: { id: archive.id } },
    });

    // Tags and quick filters.
    await call(
      'POST',
      `/api/tag?${q}&tagType=FILE`,
      { token: owner, json: { tag: 'seasonal', comment: 'Campaign artwork that expires' } },
      201,
    );
    await call('PUT', `/api/tag?${q}&tag=seasonal&tagType=FILE`, { token: owner, json: { comment: 'Artwork of a season' } });
    await call('GET', `/api/tag?${q}`, { token: owner });
    await call('GET', `/api/tag/suggest?${q}&keyword=sea&entity=FILE`, { token: owner });
    await call('DELETE', `/api/tag?${q}&tag=seasonal&tagType=FILE`, { token: owner }, 204);
    const promos = (
      await call(
        'POST',
        `/api/quickFilter?${q}`,
        {
          token: owner,
          json: { name: 'Promotions', filteredEntityType: 'FILE', criteria: { type: 'FILE', tags: ['promo'], validFileOnly: true } },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/quickFilter?${q}&quickFilterId=${promos.id}`, {
      token: owner,
      json: { name: 'Current promotions', listed: true },
    });
    await call('GET', `/api/v2/quickFilter?${q}`, { token: owner });
    await call('GET', `/api/quickFilter/${promos.id}?${q}`, { token: owner });
    const promoFolder = (
      await call(
        'POST',
        `/api/fileFolder/addFilteredFileFolder?${q}&parentId=${fileRoot.id}&name=Promotions&quickFilterId=${promos.id}`,
        { token: owner },
        201,
      )
    ).body;
    await call('DELETE', `/api/fileFolder/${promoFolder.id}?${q}`, { token: owner }, 204);
    const scratch = (
      await call(
        'POST',
        `/api/quickFilter?${q}`,
        { token: owner, json: { name: 'Lobby screens', filteredEntityType: 'DEVICE', criteria: { type: 'DEVICE', tags: ['lobby'] } } },
        201,
      )
    ).body;
    await call('DELETE', `/api/quickFilter?${q}&quickFilterId=${scratch.id}`, { token: owner }, 204);

    // Content: folders, a slide, a playlist, a template copy, tags, locks.
    const contentRoot = (await call('GET', `/api/v2/contentGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`, { token: owner }))
      .body.content[0];
    const seasonal = (
      await call(
        'POST',
        `/api/contentGroup?${q}&parentGroupId=${contentRoot.id}`,
        { token: owner, json: { name: 'Seasonal', deviceContentType: 'content' } },
        201,
      )
    ).body;
    await call('PUT', `/api/contentGroup/${seasonal.id}?${q}`, { token: owner, json: { name: 'Seasonal campaigns' } });
    await call('GET', `/api/v2/contentGroup/${seasonal.id}?${q}`, { token: owner });
    await call('POST', `/api/contentGroup/updateTeamAssignments?${q}&contentGroupId=${seasonal.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    const page = { tags: [], pageStyle: { backgroundColor: '#ffffff' }, pageData: { screenSize: { width: 1920, height: 1080 } } };
    const slide = (
      await call(
        'POST',
        `/api/content?${q}&contentGroupId=${seasonal.id}`,
        {
          token: owner,
          json: {
            name: 'Summer sale',
            structureType: 'SLIDE',
            version: '1.0',
            comment: 'Window screens',
            data: {
              Default: {
                ...page,
                widgets: [
                  { id: 'headline', type: 'text', x: 80, y: 80, width: 1200, height: 160, zIndex: 1, text: 'Summer sale: 30 % off' },
                  { id: 'poster', type: 'image', x: 0, y: 280, width: 1920, height: 800, zIndex: 0, fileId: uploaded.id },
                ],
              },
            },
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/content/${slide.id}`, { token: owner, json: { comment: 'Window and entrance screens' } });
    const loop = (
      await call(
        'POST',
        `/api/simpleLoop?${q}&contentGroupId=${seasonal.id}`,
        {
          token: owner,
          json: {
            name: 'Lobby loop',
            simpleLoopType: 'NORMAL',
            version: '2.0',
            data: {
              loopData: {
                resolution: { width: 1920, height: 1080 },
                defaultImageFit: 'contain',
                defaultVideoFit: 'contain',
                defaultDurationMs: 10_000,
              },
              slides: [
                { key: 'sale', type: 'CONTENT', id: slide.id, durationMs: 15_000 },
                { key: 'hours', type: 'FILE', id: hours.id },
              ],
            },
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/simpleLoop/${loop.id}`, { token: owner, json: { name: 'Lobby loop (summer)' } });
    await call('POST', `/api/simpleLoop/duplicate/${loop.id}`, { token: owner, json: { name: 'Lobby loop (copy)' } });
    const copy = (await call('POST', `/api/content/duplicate/${slide.id}`, { token: owner, json: { name: 'Summer sale (copy)' } }, 201))
      .body;
    const templates = (await call('GET', '/api/template', { token: owner })).body;
    const fromTemplate = (
      await call(
        'POST',
        `/api/content/fromTemplate/${templates.content[0].id}?${q}&contentGroupId=${seasonal.id}`,
        { token: owner, json: { name: 'Welcome' } },
        201,
      )
    ).body;
    await call('GET', `/api/v2/deviceContent?${q}&size=3&sort=name,asc`, { token: owner });
    await call('GET', `/api/v2/deviceContent/${slide.id}?${q}`, { token: owner });
    await call('POST', `/api/deviceContent/${slide.id}/setTags`, { token: owner, json: ['summer', 'window'] });
    await call('POST', `/api/v2/deviceContent/tags/add?${q}&search=${encodeURIComponent('name~sale')}`, { token: owner, json: ['promo'] });
    await call('POST', `/api/v2/deviceContent/tags/set?${q}&search=${encodeURIComponent(`id=${copy.id}`)}`, {
      token: owner,
      json: ['draft'],
    });
    await call('POST', `/api/v2/deviceContent/tags/remove?${q}&search=${encodeURIComponent('name~sale')}`, {
      token: owner,
      json: ['window'],
    });
    await call('GET', `/api/content/usageDetails?${q}&search=${encodeURIComponent(`id=${slide.id}`)}`, { token: owner });
    await call('GET', `/api/simpleLoop/usageDetails?${q}&search=${encodeURIComponent(`id=${loop.id}`)}`, { token: owner });
    await call('GET', `/api/content/getDeviceOnlineOfflineRatio?${q}&search=${encodeURIComponent(`id=${slide.id}`)}`, { token: owner });
    await call('GET', `/api/simpleLoop/getDeviceOnlineOfflineRatio?${q}&search=${encodeURIComponent(`id=${loop.id}`)}`, { token: owner });
    await call('POST', `/api/content/lock/${copy.id}/true`, { token: owner });
    await call('POST', `/api/content/lock/${copy.id}/false`, { token: owner });
    await call('POST', `/api/simpleLoop/lock/${loop.id}/false`, { token: owner });
    const drafts = (
      await call('POST', `/api/contentGroup?${q}&parentGroupId=${contentRoot.id}`, { token: owner, json: { name: 'Drafts' } }, 201)
    ).body;
    await call('POST', `/api/contentGroup/move?${q}`, {
      token: owner,
      json: { contentIds: [copy.id], contentGroupIds: [], targetGroupId: drafts.id },
    });
    await call('DELETE', `/api/content/${fromTemplate.id}`, { token: owner }, 204);
    await call('DELETE', `/api/contentGroup/${drafts.id}?${q}&removeContents=true`, { token: owner }, 204);

    // Advertisers.
    const advertiser = (
      await call(
        'POST',
        `/api/adv?${q}`,
        {
          token: owner,
          json: {
            name: 'Sunny Drinks',
            comment: 'Summer partner',
            enabled: true,
            validity: { fromDate: '2026-06-01', toDate: '2026-08-31', cron: '0 8-20 * * MON-SAT', timeZone: 'Europe/Berlin' },
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/adv/${advertiser.id}?${q}`, { token: owner, json: { comment: 'Summer partner, Berlin stores' } });
    await call('GET', `/api/adv?${q}`, { token: owner });
    await call('GET', `/api/adv/simple?${q}`, { token: owner });
    await call('GET', `/api/adv/simplePaged?${q}`, { token: owner });
    await call('GET', `/api/adv/${advertiser.id}?${q}`, { token: owner });
    await call('POST', `/api/adv/updateTeamAssignments?${q}&advertiserId=${advertiser.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: true }] },
    });
    await call('PUT', `/api/adv/enableProofOfPlayLinks?${q}&advId=${advertiser.id}`, { token: owner });
    await call('GET', `/api/adv/getProofOfPlayLinks?${q}&advId=${advertiser.id}`, { token: owner });

    // Notification channels of alert rules.
    const facility = (
      await call(
        'POST',
        `/api/alertRuleNotificationChannel?${q}&teamIds=${team.id}:false`,
        {
          token: owner,
          json: { name: 'Facility team', comment: 'Screens in the Berlin stores', channelType: 'EMAIL', notify: ['facility@example.com'] },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/alertRuleNotificationChannel/${facility.id}?${q}`, {
      token: owner,
      json: { notify: ['facility@example.com', 'night.shift@example.com'] },
    });
    await call('GET', `/api/alertRuleNotificationChannel?${q}`, { token: owner });
    await call('GET', `/api/alertRuleNotificationChannel/simple?${q}`, { token: owner });
    await call('GET', `/api/alertRuleNotificationChannel/${facility.id}?${q}`, { token: owner });
    // A test notification, its delivery; a webhook channel's secret rotated; the owner's bell.
    await call('POST', `/api/alertRuleNotificationChannel/${facility.id}/test?${q}`, { token: owner });
    await call('GET', `/api/alertRuleNotificationChannel/${facility.id}/deliveries?${q}`, { token: owner });
    const hook = (
      await call(
        'POST',
        `/api/alertRuleNotificationChannel?${q}`,
        {
          token: owner,
          json: { name: 'Ticketing system', comment: '', channelType: 'WEBHOOK', notify: ['https://tickets.example.com/hooks/signage'] },
        },
        201,
      )
    ).body;
    await call('POST', `/api/alertRuleNotificationChannel/${hook.id}/rotateSecret?${q}`, { token: owner });
    await call('DELETE', `/api/alertRuleNotificationChannel/${hook.id}?${q}`, { token: owner }, 204);
    const console_ = (
      await call(
        'POST',
        `/api/alertRuleNotificationChannel?${q}`,
        { token: owner, json: { name: 'Console', comment: 'The bell', channelType: 'USER_NOTIFICATION', notify: [ownerUserId] } },
        201,
      )
    ).body;
    await call('POST', `/api/alertRuleNotificationChannel/${console_.id}/test?${q}`, { token: owner });
    await call('GET', '/api/notification', { token: owner });
    await call('GET', '/api/notification/unreadCount', { token: owner });
    await call('POST', '/api/notification/readAll', { token: owner });

    // Datasources: an internal table and its data, a room's status written by a display, an external feed refreshed
    // (no network here: its lastError says why), their usage.
    const lunch = (
      await call(
        'POST',
        `/api/datasource?${q}`,
        { token: owner, json: { name: 'Lunch menu', sourceType: 'INTERNAL', structureType: 'TABLE', comment: 'Canteen board' } },
        201,
      )
    ).body;
    await call('PUT', `/api/datasource/${lunch.id}/data?${q}`, {
      token: owner,
      json: {
        columns: ['dish', 'price'],
        rows: [
          { dish: 'Pasta al forno', price: 7.5 },
          { dish: 'Tomato soup', price: 4.2 },
        ],
      },
    });
    await call('GET', `/api/datasource/${lunch.id}/data?${q}`, { token: owner });
    await call('PUT', `/api/datasource/${lunch.id}?${q}`, { token: owner, json: { comment: 'Canteen board, ground floor' } });
    const orion = (
      await call(
        'POST',
        `/api/datasource?${q}`,
        { token: owner, json: { name: 'Room Orion', sourceType: 'INTERNAL', structureType: 'KEY_VALUE', editableByDisplay: true } },
        201,
      )
    ).body;
    await call('POST', `/api/display/datasource/${orion.id}/set?key=status&value=busy`, { token: owner });
    await call('POST', `/api/display/datasource/${orion.id}/merge`, { json: { next: { title: 'Stand-up', start: '10:00' } } });
    const cityNews = {
      name: 'City news',
      sourceType: 'EXTERNAL',
      structureType: 'FEED',
      type: 'RSS',
      remoteUrl: 'https://feeds.example.com/city.rss',
      refreshFrequency: 600,
      keepLastXItem: 20,
    };
    await call('POST', `/api/datasource/test?${q}`, { token: owner, json: cityNews });
    const newsFeed = (await call('POST', `/api/datasource?${q}`, { token: owner, json: cityNews }, 201)).body;
    await call('POST', `/api/datasource/refresh/${newsFeed.id}?${q}&sync=true`, { token: owner });
    await call('DELETE', `/api/datasource/${newsFeed.id}/clearCache?${q}`, { token: owner }, 204);
    await call('GET', `/api/v2/datasource?${q}`, { token: owner });
    await call('GET', `/api/v2/datasource/${lunch.id}?${q}`, { token: owner });
    await call('GET', `/api/datasource/usageDetails?${q}`, { token: owner });
    await call('DELETE', `/api/datasource/${newsFeed.id}?${q}`, { token: owner }, 204);

    // Screens: folders, a screen registered and claimed by its code, its settings.
    const deviceRoot = (await call('GET', `/api/v2/deviceGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`, { token: owner })).body
      .content[0];
    const lobby = (await call('POST', `/api/deviceGroup/${deviceRoot.id}?${q}`, { token: owner, json: { name: 'Lobby' } }, 201)).body;
    await call('PUT', `/api/deviceGroup/${lobby.id}?${q}`, { token: owner, json: { tags: ['lobby'] } });
    const wall = (
      await call(
        'POST',
        `/api/deviceGroup/${deviceRoot.id}?${q}`,
        { token: owner, json: { name: 'Entrance wall', type: 'VIDEO_WALL', videoWallMetaData: { rows: 2, columns: 2 } } },
        201,
      )
    ).body;
    await call('POST', `/api/deviceGroup/updateTeamAssignments?${q}&deviceGroupId=${lobby.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    await call('GET', `/api/v2/deviceGroup/${lobby.id}?${q}`, { token: owner });
    const registered = (
      await call(
        'POST',
        '/public-api/display/register',
        {
          json: {
            type: 'SCREEN',
            platform: 'BROWSER',
            version: '1.4.0',
            nativeResolutionWidth: 1920,
            nativeResolutionHeight: 1080,
            timeZone: 'Europe/Berlin',
          },
        },
        201,
      )
    ).body;
    await call('POST', `/api/v2/device/assignToCustomer?${q}`, {
      token: owner,
      json: {
        activationCode: registered.activationCode,
        deviceName: 'Lobby screen',
        licenseStatus: 'FREE',
        licenseType: 'BASIC',
        timeZone: 'Europe/Berlin',
      },
    });
    const device = (
      await call('POST', '/oauth/token', {
        headers: { authorization: basic(registered.deviceId, registered.deviceSecret) },
        form: { grant_type: 'client_credentials' },
      })
    ).body.access_token as string;
    const deviceId = registered.deviceId as string;
    await call('POST', `/api/v2/device/move?${q}`, { token: owner, json: { deviceIds: [deviceId], targetGroupId: lobby.id } }, 204);
    await call('PUT', `/api/device/${deviceId}`, {
      token: owner,
      json: { name: 'Lobby screen', comment: 'Left of the entrance', timeZone: 'Europe/Berlin' },
    });
    await call('GET', `/api/v2/device?${q}`, { token: owner });
    await call('GET', `/api/v2/device/${deviceId}?${q}`, { token: owner });
    const batch = `${q}&search=${encodeURIComponent(`id=${deviceId}`)}`;
    await call('POST', `/api/v2/device/tags/add?${batch}`, { token: owner, json: ['lobby', 'ground-floor'] });
    await call('POST', `/api/v2/device/tags/set?${batch}`, { token: owner, json: ['lobby', 'entrance'] });
    await call('POST', `/api/v2/device/tags/remove?${batch}`, { token: owner, json: ['entrance'] });

    // Alert rules on the Lobby's screens, told to the facility team; the alert lists (nothing is offline yet).
    const lobbyOfflineBody = {
      '@type': 'DeviceOffline',
      name: 'Lobby screens offline',
      comment: 'Opening hours of the Berlin stores',
      enabled: true,
      condition: {
        '@type': 'DeviceOfflineAndNoActivityForMinutes',
        inactiveMinutes: 15,
        deviceGroupId: lobby.id,
        recursive: true,
        tagFilter: { tags: ['entrance'], logicalOperator: 'OR', tagFilterType: 'EXCLUDE' },
      },
      scheduledEvaluateSeconds: 300,
      delayEvaluateAfterViolationMinutes: 60,
      workingDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true },
      workingTime: { allDay: false, from: '08:00', end: '20:00', timeZone: 'Europe/Berlin' },
      notificationChannels: [{ id: facility.id }],
      alertSmsTemplate: '{deviceName} in {folderPath} is offline since {since}',
    };
    const lobbyOffline = (
      await call(
        'POST',
        `/api/alertRule?${q}&teamIds=${team.id}:false`,
        {
          token: owner,
          json: lobbyOfflineBody,
        },
        201,
      )
    ).body;
    const feedErrors = (
      await call(
        'POST',
        `/api/alertRule?${q}`,
        {
          token: owner,
          json: {
            '@type': 'DatasourceError',
            name: 'Feeds failing',
            comment: '',
            condition: { '@type': 'DatasourceRefreshErrorCondition', threshold: 3 },
            workingDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true },
            workingTime: { allDay: true, timeZone: 'Europe/Berlin' },
            notificationChannels: [{ id: facility.id }],
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/alertRule/${lobbyOffline.id}?${q}`, {
      token: owner,
      // What a client sends: the rule's fields, not the read-only ones a read answers (id, version, counters).
      json: { ...lobbyOfflineBody, condition: { ...lobbyOfflineBody.condition, inactiveMinutes: 30 } },
    });
    await call('GET', `/api/alertRule?${q}`, { token: owner });
    await call('GET', `/api/alertRule/simple?${q}`, { token: owner });
    await call('GET', `/api/alertRule/simplePaged?${q}`, { token: owner });
    await call('GET', `/api/alertRule/${lobbyOffline.id}?${q}`, { token: owner });
    await call('POST', `/api/alertRule/updateTeamAssignments?${q}&alertRuleId=${lobbyOffline.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    await call('GET', `/api/alert?${q}`, { token: owner });
    await call('GET', `/api/alert/device?${q}&state=OPEN`, { token: owner });
    await call('GET', `/api/alert/datasource?${q}`, { token: owner });
    await call('GET', `/api/alert/device/all?${q}`, { token: owner });
    await call('DELETE', `/api/alertRule/${feedErrors.id}?${q}`, { token: owner }, 204);
    await call('POST', `/api/v2/device/assignContent?${batch}&contentId=${loop.id}`, { token: owner });
    await call('POST', `/api/v2/device/cacheContent?${batch}&contentId=${loop.id}`, { token: owner });
    await call('POST', `/api/v2/device/refreshContent?${batch}`, { token: owner });
    await call('POST', `/api/v2/device/clearCache?${batch}`, { token: owner, json: { limit: 500, fileExtensions: ['mp4'] } });
    await call('POST', `/api/v2/device/display?${batch}&enabled=true`, { token: owner });
    await call('POST', `/api/v2/device/volume?${batch}&level=40`, { token: owner });
    await call('POST', `/api/v2/device/brightness?${batch}&level=80`, { token: owner });
    await call('POST', `/api/v2/device/rotation?${batch}&angle=90&type=WEB_VIEW`, { token: owner });
    await call('POST', `/api/v2/device/rebootTime?${batch}&time=03:30`, { token: owner });
    await call('DELETE', `/api/v2/device/rebootTime?${batch}`, { token: owner });
    await call('POST', `/api/v2/device/workingHours?${batch}`, {
      token: owner,
      json: { mode: 'SCREEN', days: { MON: { from: '08:00', to: '20:00' }, SAT: { from: '09:00', to: '18:00' } } },
    });
    await call('POST', `/api/v2/device/time?${batch}&timeZone=Europe%2FBerlin`, { token: owner });
    await call('POST', `/api/v2/device/location?${batch}`, { token: owner, json: { latitude: 52.52, longitude: 13.405 } });
    await call('POST', `/api/v2/device/setWeatherLocation?${batch}&weatherLocation=Berlin`, { token: owner });
    await call('POST', `/api/v2/device/sensorConfig?${batch}`, { token: owner, json: { motion: { enabled: true } } });
    await call('POST', `/api/v2/device/updateRule?${batch}`, { token: owner, json: { channel: 'stable' } });
    await call('POST', `/api/v2/device/resetSensor?${batch}`, { token: owner });
    await call('POST', `/api/v2/device/advancedConfiguration?${batch}&updateMethod=ADD_OR_UPDATE`, {
      token: owner,
      json: { kioskMode: true },
    });
    await call('POST', `/api/v2/device/setUpdateVersionUpperLimit?${batch}&version=1.5.0`, { token: owner });
    await call('POST', `/api/v2/device/datasource?${batch}&datasourceId=${uuidv7()}`, { token: owner });
    await call('DELETE', `/api/v2/device/datasource?${batch}`, { token: owner });
    await call('POST', `/api/v2/device/dataRowId?${batch}&dataRowId=store-berlin`, { token: owner });
    await call('DELETE', `/api/v2/device/dataRowId?${batch}`, { token: owner });
    await call('POST', `/api/v2/device/showName?${batch}&enabled=false`, { token: owner });
    await call('POST', `/api/v2/device/requestLog?${batch}&systemLog=true`, { token: owner });
    await call('POST', `/api/v2/device/update?${batch}&version=1.5.0`, { token: owner });
    await call('POST', `/api/v2/device/emergency?${batch}&emergencyStatus=false`, { token: owner });
    await call('POST', `/api/v2/device/turnOnRapidPreviewMode?${batch}&duration=60000&minimumDelayBetweenPreviews=5000`, { token: owner });
    await call('POST', `/api/v2/device/takeHighResPreview?${batch}`, { token: owner });
    await call('POST', `/api/v2/device/updateLicense?${batch}&licenseStatus=FREE&licenseType=PROFESSIONAL`, { token: owner });
    await call('POST', `/api/v2/device/restart?${batch}`, { token: owner });
    await call('GET', `/api/v2/device/${deviceId}/commands?${q}`, { token: owner });

    // The player: status, heartbeat and commands, telemetry, a screenshot.
    await call('GET', '/api/display/status', { token: device });
    const beat = (
      await call('POST', '/api/display/heartbeat', {
        token: device,
        json: {
          version: '1.4.0',
          localIpAddress: '10.0.0.21',
          deviceInfo: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', screen: '1920x1080' },
        },
      })
    ).body;
    await call('POST', `/api/display/commands/${beat.commands[0].id}/ack`, { token: device, json: { ok: true } }, 204);
    await call('POST', '/api/display/wsTicket', { token: device });
    await call(
      'POST',
      '/api/display/metrics',
      {
        token: device,
        json: {
          samples: [
            { type: 'CPU', timestamp: Date.now() - 60_000, value: 23.5 },
            { type: 'USED_SYS_MEM', timestamp: Date.now() - 60_000, value: 812 },
          ],
        },
      },
      202,
    );
    await call('PUT', '/api/display/screenshot', { token: device, raw: { type: 'image/png', bytes: png(192, 108) } }, 204);
    await call('GET', `/api/v2/device/${deviceId}/previewStore?${q}`, { token: owner });
    await call('GET', `/api/deviceStat/${deviceId}/supportedMetrics?${q}`, { token: owner });
    await call('POST', `/api/deviceStat/${deviceId}/graphs?${q}&from=${Date.now() - 3_600_000}&to=${Date.now()}&dataPoints=4`, {
      token: owner,
      json: { metricTypes: ['CPU', 'USED_SYS_MEM'] },
    });
    await call('GET', `/api/deviceGroup/getDeviceOnlineOfflineRatio?${q}`, { token: owner });
    await call('POST', `/api/deviceGroup/moveToParent/${wall.id}/${lobby.id}?${q}`, { token: owner });
    await call('DELETE', `/api/deviceGroup/${wall.id}?${q}`, { token: owner }, 204);
    await call('GET', `/api/v2/deviceGroup?${q}`, { token: owner });

    // A meeting room's calendar: the room's screen (and anyone, as the room is open to displays) books, starts, extends
    // and ends meetings through the public calendar endpoints.
    const meetingRoom = (
      await call(
        'POST',
        `/api/datasource?${q}`,
        {
          token: owner,
          json: {
            name: 'Meeting room Spree',
            sourceType: 'INTERNAL',
            structureType: 'LIST',
            editableByDisplay: true,
            timeZone: 'Europe/Berlin',
          },
        },
        201,
      )
    ).body;
    const hour = 3_600_000;
    const tomorrow = started + 24 * hour;
    const calendar = `datasourceId=${meetingRoom.id}`;
    const planning = (
      await call(
        'POST',
        `/public-api/calendars/events?${calendar}&start=${tomorrow}&end=${tomorrow + hour}&title=Weekly%20planning`,
        {},
        201,
      )
    ).body;
    await call(
      'POST',
      `/public-api/calendars/events?${calendar}&start=${tomorrow + 2 * hour}&end=${tomorrow + 3 * hour}&title=Design%20review`,
      { token: device },
      201,
    );
    await call('GET', `/public-api/calendars/events?${calendar}&from=${tomorrow - hour}&to=${tomorrow + 4 * hour}`, { token: device });
    const meeting = `/public-api/calendars/events/${planning.id}`;
    await call('PATCH', `${meeting}/start?${calendar}&startedBy=Room%20panel`, { token: device });
    await call('PATCH', `${meeting}/extend?${calendar}&duration=15`, { token: device });
    await call('PATCH', `${meeting}/end?${calendar}&endDate=${tomorrow + hour}`, { token: device });
    await call('PATCH', `${meeting}/suspend?${calendar}&duration=10`);
    await call('PATCH', `${meeting}/cancel?${calendar}`);

    // Webhooks: a key for the fire panel, an action that starts the emergency content on the Lobby's screens, its
    // trigger (JSON header form, and the query form), the console's "Try it", and what the executions record.
    const firePanel = (
      await call('POST', `/api/webhooks/apikey?${q}`, { token: owner, json: { name: 'Fire panel', restricted: false } }, 201)
    ).body;
    await call('PUT', `/api/webhooks/apikey/${firePanel.id}?${q}`, { token: owner, json: { name: 'Fire panel, building A' } });
    await call('POST', `/api/webhooks/apikey/${firePanel.id}/updateTeamAssignments?${q}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    await call('GET', `/api/webhooks/apikey?${q}`, { token: owner });
    const alarm = (
      await call(
        'POST',
        `/api/webhookEvent/actions?${q}`,
        {
          token: owner,
          json: { name: 'Fire alarm: Lobby', eventId: 'fire-alarm-lobby', action: 'ENABLE_EMERGENCY_ON_DEVICE_GROUP', targetId: lobby.id },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/webhookEvent/actions/${alarm.id}?${q}`, {
      token: owner,
      json: { name: 'Fire alarm: Lobby', enabled: true, action: 'ENABLE_EMERGENCY_ON_DEVICE_GROUP' },
    });
    await call('POST', `/api/webhookEvent/actions/${alarm.id}/updateTeamAssignments?${q}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    await call('GET', `/api/webhookEvent/actions?${q}`, { token: owner });
    await call('GET', `/api/webhookEvent/simple?${q}`, { token: owner });
    await call('GET', `/api/webhookEvent/actions/${alarm.id}?${q}`, { token: owner });
    await call(
      'POST',
      '/public-api/integration/webhooks',
      { headers: { 'x-webhook-apikey': firePanel.token }, json: { event_id: 'fire-alarm-lobby' } },
      202,
    );
    const payload = Buffer.from(JSON.stringify({ event_id: 'fire-alarm-lobby' })).toString('base64');
    await call(
      'GET',
      `/public-api/integration/webhooks?apiKey=${encodeURIComponent(firePanel.token)}&payload=${encodeURIComponent(payload)}`,
      {},
      202,
    );
    await call('POST', `/api/webhookEvent/actions/${alarm.id}/test?${q}`, { token: owner, json: { message: 'Drill' } }, 202);
    const webhookExecutor = testExecutor(t);
    await webhookExecutor.drain();
    webhookExecutor.stop();
    await call('GET', `/api/webhookEvent/actions/${alarm.id}/executions?${q}`, { token: owner });

    // Channels, a schedule, sub-channels.
    const sale = (
      await call(
        'POST',
        `/api/campaign?${q}&teamIds=${team.id}:false`,
        {
          token: owner,
          json: {
            name: 'Summer sale channel',
            level: 'WIDGET',
            type: 'CONTENT',
            version: '2.0',
            enabled: true,
            weight: 10,
            validFrom: '2026-06-01',
            validTo: '2026-08-31',
            contentShuffleMode: 'SERIAL',
            advertiserId: advertiser.id,
            tags: ['summer'],
            affectedDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: false },
            affectedHours: { allDay: false, from: '08:00', end: '20:00', timeZone: 'Europe/Berlin' },
            contentAssignment: { assignments: [{ contentId: loop.id, weight: 1 }] },
            deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/campaign/${sale.id}`, {
      token: owner,
      json: { weight: 5, deviceTagCondition: { tags: ['lobby'], operator: 'OR' } },
    });
    await call('POST', `/api/campaign/updateTeamAssignments?${q}&campaignId=${sale.id}`, {
      token: owner,
      json: { assignToTeams: [{ teamId: team.id, readOnly: false }] },
    });
    await call('GET', `/api/v2/campaign?${q}&search=${encodeURIComponent('level=WIDGET')}`, { token: owner });
    await call('GET', `/api/v2/campaign/${sale.id}?${q}`, { token: owner });
    await call('GET', `/api/v2/campaign/airing?${q}&campaignIds=${sale.id}&at=${Date.UTC(2026, 5, 1, 10)}`, { token: owner });
    await call('GET', `/api/campaign/playerDevices?campaignId=${sale.id}`, { token: owner });
    const schedule = (
      await call(
        'POST',
        `/api/campaign?${q}`,
        {
          token: owner,
          json: {
            name: 'Opening weekend',
            level: 'TOP',
            type: 'CONTENT',
            version: '2.0',
            contentShuffleMode: 'SERIAL',
            contentAssignment: { assignments: [{ contentId: slide.id }] },
            affectedDateRanges: {
              intervals: [{ from: '2026-06-06', to: '2026-06-07', fromTime: '09:00', toTime: '18:00', isExcluded: false }],
            },
          },
        },
        201,
      )
    ).body;
    const group = (
      await call(
        'POST',
        `/api/messageGroup?${q}`,
        { token: owner, json: { name: 'Store news', weight: 1, contentShuffleMode: 'SERIAL' } },
        201,
      )
    ).body;
    await call('PUT', `/api/messageGroup/${group.id}?${q}`, { token: owner, json: { name: 'Store news (Berlin)' } });
    await call('GET', `/api/messageGroup?${q}`, { token: owner });
    await call('GET', `/api/messageGroup/${group.id}?${q}`, { token: owner });
    const news = (
      await call(
        'POST',
        `/api/message?${q}`,
        {
          token: owner,
          json: {
            name: 'Opening hours',
            messageGroupId: group.id,
            type: 'CONTENT',
            version: '2.0',
            contentId: slide.id,
            enabled: true,
            weight: 1,
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/message/${news.id}?${q}`, { token: owner, json: { validFrom: '2026-06-01', validTo: '2026-06-30' } });
    await call('GET', `/api/v2/message?${q}&messageGroupId=${group.id}`, { token: owner });
    await call('GET', `/api/v2/message/${news.id}?${q}`, { token: owner });
    const newsChannel = (
      await call(
        'POST',
        `/api/campaign?${q}`,
        {
          token: owner,
          json: {
            name: 'Store news channel',
            level: 'WIDGET',
            type: 'MESSAGE_GROUP',
            version: '2.0',
            contentShuffleMode: 'SERIAL',
            messageGroupAssignment: { assignments: [{ messageGroupId: group.id }] },
          },
        },
        201,
      )
    ).body;

    // The screen plays: its manifest, schedule, plays and the reports.
    await call('GET', '/api/display/manifest', { token: device });
    await call('GET', `/api/display/datasource/${lunch.id}`, { token: device });
    await call('GET', `/api/v2/device/${deviceId}/schedule?${q}&from=${Date.now()}&to=${Date.now() + 3_600_000}`, { token: owner });
    await call('GET', `/api/v2/device/${deviceId}/schedule/explain?${q}`, { token: owner });
    await call('POST', `/api/v2/device/schedule/now?${q}`, { token: owner, json: { deviceIds: [deviceId] } });
    await call('GET', `/api/v2/deviceGroup/${deviceRoot.id}/schedule?${q}&from=${Date.now()}&to=${Date.now() + 3_600_000}`, {
      token: owner,
    });
    await call('GET', `/api/v2/device/${deviceId}/settings?${q}`, { token: owner });
    const now = Date.now();
    await call(
      'POST',
      '/api/display/proofOfPlay',
      {
        token: device,
        json: [
          {
            eventId: uuidv7(),
            startedAt: now - 120_000,
            endedAt: now - 105_000,
            completed: true,
            campaignId: sale.id,
            contentId: loop.id,
            fileId: uploaded.id,
            viewers: 2,
            attentionMs: 9_000,
          },
          {
            eventId: uuidv7(),
            startedAt: now - 105_000,
            endedAt: now - 95_000,
            completed: true,
            campaignId: sale.id,
            contentId: loop.id,
            fileId: hours.id,
          },
        ],
      },
      202,
    );
    const window = `${q}&from=${now - 3_600_000}&to=${now + 60_000}&timeZone=Europe%2FBerlin&resolution=TOTAL`;
    await call('GET', `/api/v2/proof-of-display/device/${deviceId}?${window}&groupBy=MEDIA_FILE`, { token: owner });
    await call('GET', `/api/v2/proof-of-display/content/${loop.id}?${window}`, { token: owner });
    await call('GET', `/api/v2/proof-of-display/campaign/${sale.id}?${window}&groupBy=DEVICE`, { token: owner });
    await call('GET', `/api/v2/proof-of-display/file/${uploaded.id}?${window}`, { token: owner });
    await call('GET', `/api/v2/proof-of-display/message/${news.id}?${window}`, { token: owner });
    for (const type of ['device', 'content', 'campaign', 'file'])
      await call('GET', `/api/v2/proof-of-display/${type}/all?${window}`, { token: owner });
    for (const type of ['content', 'campaign', 'file'])
      await call('GET', `/api/v2/proof-of-display/${type}/dashboard/top/played?${window}`, { token: owner });
    await call('GET', `/api/v2/log?${q}&size=3`, { token: owner });

    // Changes and clean-up: what deletes look like.
    await call('POST', '/api/display/credentials/rotate', { token: device });
    await call('PUT', `/api/customer/settings/setDefaultContents?${q}&defaultEmergencyContentId=${slide.id}`, { token: owner });
    await call('PUT', `/api/adv/disableProofOfPlayLinks?${q}&advId=${advertiser.id}`, { token: owner });
    await call('DELETE', `/api/message/${news.id}?${q}`, { token: owner }, 204);
    await call('DELETE', `/api/campaign/${newsChannel.id}`, { token: owner }, 204);
    await call('DELETE', `/api/campaign/${schedule.id}`, { token: owner }, 204);
    await call('DELETE', `/api/messageGroup/${group.id}?${q}`, { token: owner }, 204);
    await call('PUT', `/api/file/replaceFileReference?${q}&fileIdToReplace=${old.id}&sourceFileId=${hours.id}&removeOldFile=false`, {
      token: owner,
    });
    await call('POST', `/api/fileFolder/deleteBatch?${q}`, { token: owner, json: { fileIds: [old.id], folderIds: [] } }, 204);
    await call('DELETE', `/api/fileFolder/${archive.id}?${q}`, { token: owner }, 204);
    const extra = (
      await call('POST', `/api/file?${q}&parentId=${posters.id}`, {
        token: owner,
        multipart: formOf([{ field: 'files', name: 'old-logo.png', data: png(200, 200), type: 'image/png' }]),
      })
    ).body[0];
    await call('DELETE', `/api/file/${extra.id}`, { token: owner }, 204);
    const retired = (await call('POST', `/api/adv?${q}`, { token: owner, json: { name: 'Retired brand' } }, 201)).body;
    await call('DELETE', `/api/adv/${retired.id}?${q}`, { token: owner }, 204);
    await call('DELETE', `/api/alertRule/${lobbyOffline.id}?${q}`, { token: owner }, 204);
    await call('DELETE', `/api/alertRuleNotificationChannel/${facility.id}?${q}`, { token: owner }, 204);
    await call(
      'DELETE',
      `/api/simpleLoop/${(await call('GET', `/api/v2/deviceContent?${q}&search=${encodeURIComponent('name~copy,deviceContentType=simpleLoop')}`, { token: owner })).body.content[0].id}`,
      { token: owner },
      204,
    );
    const spare = (await call('POST', `/public-api/display/register`, { json: { type: 'SCREEN', platform: 'BROWSER' } }, 201)).body;
    await call('POST', `/api/v2/device/assignToCustomer?${q}`, {
      token: owner,
      json: { activationCode: spare.activationCode, deviceName: 'Spare screen', licenseStatus: 'UN_LICENSED', timeZone: 'Europe/Berlin' },
    });
    await call('DELETE', `/api/device/${spare.deviceId}`, { token: owner }, 204);
    await call('POST', `/api/v2/device/detachContent?${batch}`, { token: owner });
    await call('DELETE', `/api/team/${team.id}?${q}`, { token: owner }, 204);
    await call('DELETE', '/api/v2/user/profilePicture', { token: owner }, 204);
    await call('DELETE', '/api/user?email=eddie.editor%40example.com', { token: owner }, 204);
    await call(
      'POST',
      `/api/user?${q}`,
      { token: owner, json: { email: 'leo.leaving@example.com', name: 'Leo Leaving', role: 'VIEWER', password: TEST_PASSWORD } },
      201,
    );
    const leaving = (
      await call('POST', '/oauth/token', {
        headers: { authorization: basic('default-client', TEST_CLIENT_SECRET) },
        form: { grant_type: 'password', username: 'leo.leaving@example.com', password: TEST_PASSWORD },
      })
    ).body.access_token as string;
    await call('DELETE', '/api/user/myAccount', { token: leaving }, 204);
    // Licences: the super admin's packages, the owner's order, the admin's approved order, the reads.
    const proMonthly = (
      await call(
        'POST',
        '/api/licensePackage',
        {
          token: admin,
          json: {
            name: 'Professional monthly',
            licenseType: 'PROFESSIONAL',
            licensePayType: 'SUBSCRIPTION',
            recurrence: { recurrenceType: 'MONTHLY', frequency: 1 },
            pricePerDevice: 12.5,
            currency: 'EUR',
          },
        },
        201,
      )
    ).body;
    await call('PUT', `/api/licensePackage/${proMonthly.id}`, { token: admin, json: { pricePerDevice: 11.9 } });
    await call('GET', '/api/licensePackage?size=5', { token: admin });
    await call('GET', `/api/licensePackage/${proMonthly.id}`, { token: admin });
    const ordered = (
      await call(
        'POST',
        `/api/licenseOrder/createAsCustomer?${q}`,
        {
          token: owner,
          json: { orderDate: '2026-11-02T00:00:00.000Z', deviceLicenseCount: 5, licensePackageId: proMonthly.id, poNumber: 'PO-2026-17' },
        },
        201,
      )
    ).body;
    const walls = (
      await call(
        'POST',
        `/api/licenseOrder?${q}`,
        {
          token: admin,
          json: {
            orderDate: '2026-11-01T00:00:00.000Z',
            deviceLicenseCount: 2,
            licenseType: 'VIDEO_WALL',
            licensePayType: 'ONETIME',
            pricePerDevice: 490,
            currency: 'EUR',
            comment: 'Lobby video wall',
            approved: true,
          },
        },
        201,
      )
    ).body;
    await call('GET', '/api/licenseOrder/getUnapprovedLicenseOrderCount', { token: admin });
    await call('PUT', `/api/licenseOrder/${ordered.id}`, {
      token: admin,
      json: { approved: true, invoiceStartDate: '2026-12-01T00:00:00.000Z', comment: 'Approved for the December invoice' },
    });
    await call('GET', `/api/licenseOrder?${q}`, { token: owner });
    await call('GET', `/api/licenseOrder/${ordered.id}?${q}`, { token: owner });
    await call('GET', `/api/licenseOrder/getByCustomer/${customerId}`, { token: owner });
    await call('GET', `/api/licenseOrder/getAllApprovedForCustomer/${customerId}`, { token: owner });
    await call('GET', `/api/customer/${customerId}/license/dashboard`, { token: owner });
    await call('GET', `/api/licenseOrder/csv?${q}`, { token: admin });
    // The invoice views on the first of December: a network owner with a member, each with an approved subscription.
    const reseller = (
      await call('POST', '/api/customer', { token: admin, json: { name: 'Example Reseller', licenseTier: 'BUSINESS' } }, 201)
    ).body;
    await call('POST', `/api/customer/${reseller.id}/promoteAsSubreseller`, { token: admin });
    const resold = (await call('POST', '/api/customer', { token: admin, json: { name: 'Example Shop', licenseTier: 'STARTER' } }, 201))
      .body;
    await call('PUT', `/api/customer/${resold.id}/moveToSubreseller?subresellerId=${reseller.id}`, { token: admin });
    for (const [id, deviceLicenseCount, recurrence] of [
      [reseller.id, 3, { recurrenceType: 'MONTHLY', frequency: 1 }],
      [resold.id, 10, { recurrenceType: 'YEARLY', frequency: 1 }],
    ] as const) {
      await call(
        'POST',
        `/api/licenseOrder?customerId=${id}`,
        {
          token: admin,
          json: {
            orderDate: '2026-11-20T00:00:00.000Z',
            deviceLicenseCount,
            licenseType: 'PROFESSIONAL',
            licensePayType: 'SUBSCRIPTION',
            recurrence,
            pricePerDevice: 119,
            currency: 'EUR',
            approved: true,
          },
        },
        201,
      );
    }
    await call('GET', `/api/customer/${reseller.id}/view/invoice?date=2026-12-01T00:00:00.000Z`, { token: admin });
    await call('GET', '/api/customer/global/view/invoice?date=2026-12-01T00:00:00.000Z', { token: admin });
    const spareOrder = (
      await call(
        'POST',
        `/api/licenseOrder/createAsCustomer?${q}`,
        { token: owner, json: { orderDate: '2026-11-03T00:00:00.000Z', deviceLicenseCount: 1 } },
        201,
      )
    ).body;
    await call('DELETE', `/api/licenseOrder/${spareOrder.id}?${q}`, { token: owner }, 204);
    await call('DELETE', `/api/licenseOrder/${walls.id}`, { token: admin }, 204);
    const retiredPackage = (
      await call(
        'POST',
        '/api/licensePackage',
        { token: admin, json: { name: 'Retired', licenseType: 'BASIC', licensePayType: 'ONETIME' } },
        201,
      )
    ).body;
    await call('DELETE', `/api/licensePackage/${retiredPackage.id}`, { token: admin }, 204);
    await call('DELETE', `/api/customer/${network.id}`, { token: admin }, 204);

    const normalise = normaliser();
    const examples = Object.fromEntries(order.map((operationId) => [operationId, normalise(recorded[operationId])]));
    const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
    await fs.writeFile(OUTPUT, `${JSON.stringify(sorted, null, 2)}\n`);
  });
});
