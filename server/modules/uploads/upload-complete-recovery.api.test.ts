import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { files } from '@/server/modules/files/files.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { expireUploadSessions } from './uploads.jobs';
import { claimCompletion, endCompletion } from './uploads.queries';
import { COMPLETION_LEASE_MS } from './uploads.rules';
import { uploadSessions } from './uploads.table';
import { bytes, crcOf, send, storedKeys } from './uploads.test-kit';

/**
 * A crash during `complete` (issue 10, point 8). The claim a complete takes is a lease it renews
 * while it runs; a process that dies leaves the session COMPLETING with a claim nobody renews. These
 * tests leave the session exactly so (a claim older than the lease, parts intact or the blob already
 * assembled, as a kill -9 before or after the assembly would) and check that complete, recover,
 * cancel and the sweep job take it over instead of answering 409 for hours.
 */
let t: TestContext;
let customerId: number;
let editor: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
});
afterAll(() => t.close());

const data = bytes(3000, 42);

async function stagedSession(): Promise<{ id: string; customerId: number; storageKey: string; storageUploadId: string }> {
  const init = await t.request('POST', '/api/v2/file/upload/init', {
    token: editor,
    json: { name: 'crash.mp4', size: data.length, totalChunks: 3, crcChecksum: crcOf(data) },
  });
  expect(init.status).toBe(200);
  for (const n of [1, 2, 3]) {
    const part = await send(t, 'PUT', `/api/v2/file/upload/${init.body.uploadId}/part/${n}`, {
      token: editor,
      body: new Uint8Array(data.subarray((n - 1) * 1000, n * 1000)),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(part.status).toBe(200);
  }
  const [row] = await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, init.body.uploadId));

  return row!;
}

/** What a completer killed mid-way leaves: the claim, last renewed `ago` ms before now. */
async function crashedClaim(id: string, ago = COMPLETION_LEASE_MS + 5_000) {
  await t.db
    .update(uploadSessions)
    .set({ state: 'COMPLETING', completingSince: new Date(Date.now() - ago) })
    .where(eq(uploadSessions.id, id));
}

const complete = (id: string) => t.request('POST', `/api/v2/file/upload/${id}/complete`, { token: editor });
const recover = (id: string) => t.request('GET', `/api/v2/file/upload/${id}/recover`, { token: editor });
const cancel = (id: string) => t.request('DELETE', `/api/v2/file/upload/${id}`, { token: editor });

describe('a complete that crashed', () => {
  it('before the assembly: recover answers, and complete takes the claim over and creates the file', async () => {
    const session = await stagedSession();
    await crashedClaim(session.id);
    const recovered = await recover(session.id);
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect(recovered.body).toMatchObject({ uploadedChunks: [1, 2, 3], missingChunks: [] });
    const done = await complete(session.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: session.id, size: data.length, crcCheckSum: crcOf(data) });
    expect((await send(t, 'GET', done.body.location, { token: editor })).raw.equals(data)).toBe(true);
    expect((await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, session.id)))[0]).toMatchObject({
      state: 'COMPLETED',
      completingSince: null,
    });
  });

  it('after the assembly (the parts are gone, the blob is whole): complete goes on from the blob', async () => {
    const session = await stagedSession();
    await crashedClaim(session.id);
    const parts = await t.storage.multipart.listParts(session.storageKey, session.storageUploadId);
    await t.storage.multipart.complete(session.storageKey, session.storageUploadId, parts);
    const done = await complete(session.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ size: data.length, crcCheckSum: crcOf(data) });
  });

  it('cancel takes the dead claim over and removes the bytes', async () => {
    const session = await stagedSession();
    await crashedClaim(session.id);
    const parts = await t.storage.multipart.listParts(session.storageKey, session.storageUploadId);
    await t.storage.multipart.complete(session.storageKey, session.storageUploadId, parts);
    expect((await cancel(session.id)).status).toBe(204);
    expect((await storedKeys(t)).filter((k) => k.includes(session.id))).toEqual([]);
    expect(await t.db.select().from(files).where(eq(files.id, session.id))).toEqual([]);
  });

  it('the sweep job (uploads.expire, every 10 minutes) opens dead claims again and leaves live ones', async () => {
    const dead = await stagedSession();
    const live = await stagedSession();
    await crashedClaim(dead.id);
    await crashedClaim(live.id, 1_000);
    await expireUploadSessions({ db: t.db, storage: t.storage, log: createLogger('silent') });
    const states = Object.fromEntries((await t.db.select().from(uploadSessions)).map((s) => [s.id, s.state]));
    expect(states[dead.id]).toBe('OPEN');
    expect(states[live.id]).toBe('COMPLETING');
  });
});

describe('a complete still running (its lease renewed)', () => {
  it('keeps the session: complete, recover and cancel answer 409 upload.error.completing', async () => {
    const session = await stagedSession();
    await crashedClaim(session.id, 1_000);
    for (const res of [await complete(session.id), await recover(session.id), await cancel(session.id)]) {
      expect(res.status).toBe(409);
      expect(res.body.key).toBe('upload.error.completing');
    }
  });

  it('loses its claim once taken over: its own end of the claim no longer applies', async () => {
    const session = await stagedSession();
    const token = await claimCompletion(t.db, session);
    expect(token).toBeInstanceOf(Date);
    expect(await claimCompletion(t.db, session)).toBeUndefined();
    // It stops renewing (hung, or its instance lost): another complete takes over and finishes.
    await crashedClaim(session.id);
    expect((await complete(session.id)).status).toBe(200);
    expect(await endCompletion(t.db, session, token!, { state: 'OPEN' })).toBe(false);
    expect((await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, session.id)))[0]!.state).toBe('COMPLETED');
  });
});
