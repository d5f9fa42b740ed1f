import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '@/server/modules/files/files.table';
import { hangUpMidBody } from '@/server/http/raw-http.test-kit';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { uploadParts } from './uploads.table';
import { storedKeys } from './uploads.test-kit';

/*
 * A client that hangs up mid-upload (issue 27 §4.10) is no server error: the request is logged as a client abort (the
 * access log's status 499, an info line, no error line), and nothing of its body stays stored.
 */

const MiB = 1024 * 1024;
type LogLine = { level: number; msg: string; status?: number; path?: string; reason?: string };
const lines: LogLine[] = [];
let t: TestContext;
let base: string;
let editor: { token: string; user: { customerId: number } };

beforeAll(async () => {
  t = await createTestContext(
    {},
    { log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) }) },
  );
  base = await t.listen();
  editor = await t.actor('EDITOR');
});
afterAll(() => t.close());

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return false;
}

/** The log lines of the request to `path` (its access line ends it). */
async function requestLines(path: string): Promise<LogLine[]> {
  const ended = () => lines.some((l) => l.msg === 'request' && l.path === path);
  expect(await until(ended)).toBe(true);
  const at = lines.findIndex((l) => l.msg === 'request' && l.path === path);
  const requestId = (lines[at] as LogLine & { requestId: string }).requestId;

  return lines.filter((l) => (l as LogLine & { requestId?: string }).requestId === requestId);
}

function expectClientAbort(logged: LogLine[]) {
  expect(logged.find((l) => l.msg === 'request')).toMatchObject({ status: 499 });
  expect(logged.filter((l) => l.level >= 50)).toEqual([]);
  expect(logged.some((l) => l.msg === 'client closed the connection before the request was read')).toBe(true);
}

describe('a client hanging up mid-upload', () => {
  it('simple upload: logged as a client abort, no blob, no file, no cleanup entry left', async () => {
    const boundary = '----hangup';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="half.png"\r\nContent-Type: image/png\r\n\r\n`;
    await hangUpMidBody(base, {
      head: `POST /api/file HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${editor.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${64 * MiB}`,
      prefix: part,
      bytes: 8 * MiB,
    });
    expectClientAbort(await requestLines('/api/file'));
    expect(await storedKeys(t)).toEqual([]);
    expect(await t.db.select().from(files).where(eq(files.name, 'half.png'))).toEqual([]);
    expect(await until(async () => (await t.db.select().from(blobCleanup)).length === 0)).toBe(true);
  });

  it('chunked upload part: logged as a client abort; the part is not recorded and recover still asks for it', async () => {
    const init = await t.request('POST', '/api/v2/file/upload/init', {
      token: editor.token,
      json: { name: 'big.png', size: 64 * MiB, totalChunks: 1 },
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const id = init.body.uploadId as string;
    const path = `/api/v2/file/upload/${id}/part/1`;
    await hangUpMidBody(base, {
      head: `PUT ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${editor.token}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${64 * MiB}`,
      bytes: 8 * MiB,
    });
    expectClientAbort(await requestLines(path));
    expect(await t.db.select().from(uploadParts).where(eq(uploadParts.sessionId, id))).toEqual([]);
    const recover = await t.request('GET', `/api/v2/file/upload/${id}/recover`, { token: editor.token });
    expect(recover.body).toMatchObject({ missingChunks: [1] });
    expect(await storedKeys(t)).toEqual([]);
  });
});
