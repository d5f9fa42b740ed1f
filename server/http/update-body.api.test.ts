import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFile, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';

/*
 * Spec 1 general rule 2 on every update endpoint: an attribute that is omitted or sent as null keeps its
 * value; `""` removes the value of a clearable attribute. One row per endpoint family.
 */

let t: TestContext;
type Signed = Awaited<ReturnType<TestContext['actor']>>;
let customerId: number;
let owner: Signed;
let editor: Signed;
let admin: Signed;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer({ name: 'Update semantics' })).id;
  owner = await t.actor('OWNER', { customerId });
  editor = await t.actor('EDITOR', { customerId });
  admin = await t.actor('ADMIN');
});
afterAll(() => t.close());

type Json = Record<string, unknown>;
type Subject = {
  /** PUT (or the endpoint's update verb) with a JSON body. */
  update: (body: unknown) => Promise<{ status: number; body: any }>;
  /** The entity as a read answers it. */
  read: () => Promise<Json>;
};

type Case = {
  family: string;
  /** Creates the entity with the `kept` values. */
  setup: () => Promise<Subject>;
  /** Attributes (and their values) an update that leaves them out, or sends null, must not change. */
  kept: Json;
  /** An update of something else (may be empty when the entity has nothing else). */
  other: Json;
  /** A clearable attribute that `""` removes. */
  clearable?: string;
};

async function ok<T extends { status: number; body: any }>(res: Promise<T>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);

  return answer;
}

const inFuture = new Date(Date.UTC(2031, 0, 31, 12)).toISOString();
let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;

const cases: Case[] = [
  {
    family: 'users (PUT /api/user/?email=)',
    kept: { name: 'Kept Name', comment: 'kept comment', language: 'de' },
    other: { address: 'Main Street 1' },
    setup: async () => {
      const user = await t.factories.user({ customerId, role: 'EDITOR', name: 'Kept Name', comment: 'kept comment', language: 'de' });

      return {
        update: (json) => t.request('PUT', `/api/user?email=${encodeURIComponent(user.email)}`, { token: owner.token, json }),
        read: async () =>
          (await ok(t.request('GET', `/api/v2/user/${user.id}?select=name,comment,language,address`, { token: owner.token }))).body,
      };
    },
  },
  {
    family: 'teams (PUT /api/team/?teamId=)',
    kept: { comment: 'kept comment' },
    other: { name: unique('Renamed team') },
    clearable: 'comment',
    setup: async () => {
      const { body } = await ok(
        t.request('POST', '/api/team', { token: owner.token, json: { name: unique('Team'), comment: 'kept comment' } }),
        201,
      );

      return {
        update: (json) => t.request('PUT', `/api/team?teamId=${body.id}`, { token: owner.token, json }),
        read: async () =>
          (await ok(t.request('GET', `/api/team?search=${encodeURIComponent(`id=${body.id}`)}`, { token: owner.token }))).body.content[0],
      };
    },
  },
  {
    family: 'customers (PUT /api/customer/{id})',
    kept: { comment: 'kept comment', expirationDate: inFuture, storageSize: 5000 },
    other: { country: 'Iceland' },
    clearable: 'storageSize',
    setup: async () => {
      const customer = await t.factories.customer({ comment: 'kept comment', expirationDate: new Date(inFuture), storageSize: 5000 });

      return {
        update: (json) => t.request('PUT', `/api/customer/${customer.id}`, { token: admin.token, json }),
        read: async () =>
          (
            await ok(
              t.request('GET', `/api/customer/${customer.id}?select=comment,expirationDate,storageSize,country`, { token: admin.token }),
            )
          ).body,
      };
    },
  },
  {
    family: 'customer settings (PUT /api/customer/settings/teams)',
    kept: { userFullAccessIfNotInTeam: true, accessResourcesWithoutTeam: true },
    other: { isFileAndFolderCreationEnabledInRootForTeamUsers: true },
    setup: async () => {
      const customer = await t.factories.customer();
      const manager = await t.actor('OWNER', { customerId: customer.id });
      const update = (json: unknown) =>
        t.request('PUT', `/api/customer/settings/teams?customerId=${customer.id}`, { token: manager.token, json });
      await ok(update({ userFullAccessIfNotInTeam: true, accessResourcesWithoutTeam: true }));
      const fields = 'userFullAccessIfNotInTeam,accessResourcesWithoutTeam,isFileAndFolderCreationEnabledInRootForTeamUsers';

      return {
        update,
        read: async () => (await ok(t.request('GET', `/api/customer/${customer.id}?select=${fields}`, { token: admin.token }))).body,
      };
    },
  },
  {
    family: 'quick filters (PUT /api/quickFilter/?quickFilterId=)',
    kept: { name: 'Kept filter', listed: false, criteria: { type: 'FILE', name: 'kept' } },
    other: { custom: true },
    setup: async () => {
      const json = { name: 'Kept filter', filteredEntityType: 'FILE', criteria: { type: 'FILE', name: 'kept' }, listed: false };
      const { body } = await ok(t.request('POST', '/api/quickFilter', { token: editor.token, json }), 201);

      return {
        update: (update) => t.request('PUT', `/api/quickFilter?quickFilterId=${body.id}`, { token: editor.token, json: update }),
        read: async () => (await ok(t.request('GET', `/api/quickFilter/${body.id}`, { token: editor.token }))).body,
      };
    },
  },
  {
    family: 'tags (PUT /api/tag?tag=&tagType=)',
    kept: { comment: 'kept comment' },
    other: {},
    clearable: 'comment',
    setup: async () => {
      const tag = `kept-${++counter}`;
      await ok(t.request('POST', '/api/tag?tagType=FILE', { token: editor.token, json: { tag, comment: 'kept comment' } }), 201);
      const update = (json: unknown) => t.request('PUT', `/api/tag?tag=${tag}&tagType=FILE`, { token: editor.token, json });

      return {
        update,
        read: async () => (await ok(t.request('GET', '/api/tag?select=fileTags', { token: editor.token }))).body.fileTags[tag],
      };
    },
  },
  {
    family: 'files (PUT /api/file/{fileId})',
    kept: { name: 'kept.png', tags: ['kept'], muted: true },
    other: { metaData: { note: 'x' } },
    setup: async () => {
      const file = await insertFile(t.db, await rootFolderOf(t.db, customerId), { name: 'kept.png', tags: ['kept'], muted: true });

      return {
        update: (json) => t.request('PUT', `/api/file/${file.id}`, { token: editor.token, json }),
        read: async () =>
          (await ok(t.request('GET', `/api/v2/file/${file.id}?select=name,tags,muted,metaData`, { token: editor.token }))).body,
      };
    },
  },
  {
    family: 'UI profiles (PUT /api/v2/userInterfaceProfile/{id})',
    kept: { comment: 'kept comment', hiddenUIElementRules: { version: 1, newUi: { media: false } } },
    other: { name: unique('Renamed profile') },
    clearable: 'comment',
    setup: async () => {
      const json = { name: unique('Profile'), comment: 'kept comment', hiddenUIElementRules: { version: 1, newUi: { media: false } } };
      const { body } = await ok(t.request('POST', '/api/v2/userInterfaceProfile', { token: owner.token, json }), 201);

      return {
        update: (update) => t.request('PUT', `/api/v2/userInterfaceProfile/${body.id}`, { token: owner.token, json: update }),
        read: async () => (await ok(t.request('GET', `/api/v2/userInterfaceProfile/${body.id}`, { token: owner.token }))).body,
      };
    },
  },
];

describe('update endpoints: omitted and null attributes keep their value (spec 1 rule 2)', () => {
  it.each(cases.map((c) => [c.family, c] as const))('%s', async (_family, c) => {
    const subject = await c.setup();
    expect(await subject.read()).toMatchObject(c.kept);

    const omitted = await ok(subject.update(c.other));
    expect(omitted.body).toMatchObject(c.kept);
    expect(await subject.read()).toMatchObject({ ...c.kept, ...c.other });

    const nulls = Object.fromEntries(Object.keys(c.kept).map((key) => [key, null]));
    await ok(subject.update(nulls));
    expect(await subject.read()).toMatchObject({ ...c.kept, ...c.other });

    if (c.clearable) {
      await ok(subject.update({ [c.clearable]: '' }));
      const after = await subject.read();
      // Absent, or null where the read named it in `select`.
      expect(after[c.clearable] ?? null).toBeNull();
      const { [c.clearable]: _removed, ...rest } = c.kept;
      expect(after).toMatchObject(rest);
    }
  });
});

describe('modify bodies ignore null lists', () => {
  it('team resources and UI profile assignment', async () => {
    const { body: team } = await ok(t.request('POST', '/api/team', { token: owner.token, json: { name: unique('Lists') } }), 201);
    const member = await t.factories.user({ customerId, role: 'EDITOR' });
    const path = `/api/team/updateUserAssignments?teamId=${team.id}`;
    await ok(t.request('PUT', path, { token: owner.token, json: { resourcesToAdd: [{ id: member.id }] } }));
    const unchanged = await ok(t.request('PUT', path, { token: owner.token, json: { resourcesToAdd: null, resourceIdsToRemove: null } }));
    expect(unchanged.body).toEqual([{ id: member.id, readOnly: false }]);

    const { body: profile } = await ok(
      t.request('POST', '/api/v2/userInterfaceProfile', { token: owner.token, json: { name: unique('Assign'), hiddenUIElementRules: {} } }),
      201,
    );
    await ok(
      t.request('POST', `/api/v2/userInterfaceProfile/${profile.id}/assign`, {
        token: owner.token,
        json: { assignUserIds: null, removeUserIds: null },
      }),
    );
  });
});
