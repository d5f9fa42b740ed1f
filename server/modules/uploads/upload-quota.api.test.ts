import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { customers } from '@/server/tenant/customers.table';
import { teams } from '@/server/modules/teams/teams.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { expireUploadSessions } from './uploads.jobs';
import { uploadSessions } from './uploads.table';
import { bytes, png, send, storedKeys, uploadRequest } from './uploads.test-kit';

/**
 * Staged uploads count against the storage quota (issue 10, point 6): an open session reserves its
 * declared size at init, atomically beside files and other sessions; the reservation ends with the
 * session (cancel, expiry, a refused checksum) or becomes the file's bytes at complete; cancel removes
 * the session's bytes at once.
 */
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function tenant(storageSize: number | null) {
  const customer = await t.factories.customer({ storageSize });
  const token = (await t.actor('OWNER', { customerId: customer.id })).token;

  return { customerId: customer.id, token };
}

const init = (token: string, body: Record<string, unknown>, query = '') =>
  t.request('POST', `/api/v2/file/upload/init${query}`, { token, json: body });
const putPart = (token: string, id: string, n: number, data: Buffer) =>
  send(t, 'PUT', `/api/v2/file/upload/${id}/part/${n}`, {
    token,
    body: new Uint8Array(data),
    headers: { 'content-type': 'application/octet-stream' },
  });
const complete = (token: string, id: string) => t.request('POST', `/api/v2/file/upload/${id}/complete`, { token });
const cancel = (token: string, id: string) => t.request('DELETE', `/api/v2/file/upload/${id}`, { token });
const used = async (customerId: number) => (await t.db.select().from(customers).where(eq(customers.id, customerId)))[0]!.usedStorageSize;

function expectLimit(res: { status: number; body: any }, usedBytes: number, limit: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'STORAGE', used: usedBytes, limit } });
}

describe('open upload sessions reserve their size', () => {
  it('init reserves; further inits and simple uploads see it; cancel, completion and expiry end it', async () => {
    const { customerId, token } = await tenant(100);
    const first = await init(token, { name: 'a.mp4', size: 60, totalChunks: 1 });
    expect(first.status).toBe(200);
    expectLimit(await init(token, { name: 'b.mp4', size: 60, totalChunks: 1 }), 60, 100);
    expectLimit(await uploadRequest(t, token, [{ field: 'files', name: 'c.png', data: png(1, 1, 50) }]), 60, 100);
    // The files counter holds files only: the reservation is the session row.
    expect(await used(customerId)).toBe(0);

    expect((await cancel(token, first.body.uploadId)).status).toBe(204);
    const second = await init(token, { name: 'b.mp4', size: 60, totalChunks: 1 });
    expect(second.status).toBe(200);
    expect((await putPart(token, second.body.uploadId, 1, bytes(60))).status).toBe(200);
    expect((await complete(token, second.body.uploadId)).status).toBe(200);
    // Completion turns the reservation into the file's bytes, counted once.
    expect(await used(customerId)).toBe(60);
    expectLimit(await init(token, { name: 'd.mp4', size: 41, totalChunks: 1 }), 60, 100);
    const third = await init(token, { name: 'd.mp4', size: 40, totalChunks: 1 });
    expect(third.status).toBe(200);
    expectLimit(await init(token, { name: 'e.mp4', size: 1, totalChunks: 1 }), 100, 100);

    await t.db
      .update(uploadSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(uploadSessions.id, third.body.uploadId));
    await expireUploadSessions({ db: t.db, storage: t.storage, log: createLogger('silent') });
    expect((await init(token, { name: 'e.mp4', size: 40, totalChunks: 1 })).status).toBe(200);
  });

  it('a refused checksum ends the session and its reservation', async () => {
    const { token } = await tenant(100);
    const bad = await init(token, { name: 'crc.mp4', size: 80, totalChunks: 1, crcChecksum: '00000000' });
    expect((await putPart(token, bad.body.uploadId, 1, bytes(80))).status).toBe(200);
    expect((await complete(token, bad.body.uploadId)).body.key).toBe('upload.error.checksumMismatch');
    expect((await init(token, { name: 'again.mp4', size: 80, totalChunks: 1 })).status).toBe(200);
  });

  it('sixty staged sessions cannot take more than the quota, even in parallel', async () => {
    const { customerId, token } = await tenant(100);
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => init(token, { name: `s${i}.mp4`, size: 30, totalChunks: 1 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200))
      expect(r.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'STORAGE', limit: 100 } });
    // Sending every part and completing each session still fits.
    for (const r of results.filter((x) => x.status === 200)) {
      expect((await putPart(token, r.body.uploadId, 1, bytes(30))).status).toBe(200);
      expect((await complete(token, r.body.uploadId)).status).toBe(200);
    }
    expect(await used(customerId)).toBe(90);
  });

  it('a tenant without a limit is never refused', async () => {
    const { token } = await tenant(null);
    expect((await init(token, { name: 'big.mp4', size: 10_000_000_000, totalChunks: 1000 })).status).toBe(200);
  });
});

describe("cancel removes the session's bytes at once", () => {
  it('also the blob a failed complete had assembled (not only at the clean-up job)', async () => {
    const { customerId, token } = await tenant(1000);
    const team = await t.request('POST', '/api/team', { token, json: { name: `gone-${Date.now()}` } });
    const session = await init(token, { name: 'assembled.mp4', size: 100, totalChunks: 2 }, `?teamIds=${team.body.id}:false`);
    expect((await putPart(token, session.body.uploadId, 1, bytes(50, 1))).status).toBe(200);
    expect((await putPart(token, session.body.uploadId, 2, bytes(50, 2))).status).toBe(200);
    await t.db.delete(teams).where(eq(teams.id, team.body.id));
    // The team is gone after init: the complete fails after the parts were assembled into the blob.
    expect((await complete(token, session.body.uploadId)).status).toBe(404);
    const key = `customer/${customerId}/files/${session.body.uploadId}`;
    expect(await storedKeys(t)).toContain(key);

    expect((await cancel(token, session.body.uploadId)).status).toBe(204);
    expect(await storedKeys(t)).not.toContain(key);
    expect((await t.db.select().from(blobCleanup)).filter((e) => e.key === key)).toEqual([]);
    expect((await init(token, { name: 'next.mp4', size: 1000, totalChunks: 1 })).status).toBe(200);
  });
});
