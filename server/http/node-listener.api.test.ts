import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { DRAIN_BYTES } from './node-listener';
import { rawExchange, twoOnOneConnection } from './raw-http.test-kit';

/**
 * Early answers to requests whose body is still arriving (issue 10 point 10), over a real listener:
 * the client gets the answer, not a reset, also when it writes the whole body before reading (as
 * Python's http.client does) and when it is slow.
 */

const MiB = 1024 * 1024;
let t: TestContext;
let base: string;
let editor: string;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
  editor = (await t.actor('EDITOR')).token;
});
afterAll(() => t.close());

const multipart = 'Content-Type: multipart/form-data; boundary=----x';

describe('an early answer reaches a client that is still sending', () => {
  it('404 of an unknown folder to a 20 MB upload written whole before reading', async () => {
    const res = await rawExchange(base, {
      head: `POST /api/file?parentId=${uuidv4()} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${editor}\r\n${multipart}\r\nContent-Length: ${20 * MiB}`,
      total: 20 * MiB,
      mode: 'writeAllFirst',
    });
    expect(res.error).toBeUndefined();
    expect(res.sent).toBe(20 * MiB);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ status: 404 });
  });

  it('401 to a slow anonymous 20 MB upload written whole before reading', async () => {
    const res = await rawExchange(base, {
      head: `POST /api/file HTTP/1.1\r\nHost: test\r\n${multipart}\r\nContent-Length: ${20 * MiB}`,
      total: 20 * MiB,
      piece: MiB,
      paceMs: 60,
      mode: 'writeAllFirst',
    });
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(401);
  });

  it('413 of a declared length over the limit, to a client writing 20 MB before reading', async () => {
    const res = await rawExchange(base, {
      head: `POST /api/team HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${editor}\r\nContent-Type: application/json\r\nContent-Length: ${20 * MiB}`,
      total: 20 * MiB,
      mode: 'writeAllFirst',
    });
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(413);
    // The rest was too long to drain: the connection ends after the answer.
    expect(res.headers.connection).toBe('close');
  });

  it('a client that reads while sending gets the answer early and may stop', async () => {
    const res = await rawExchange(base, {
      head: `POST /api/file?parentId=${uuidv4()} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${editor}\r\n${multipart}\r\nContent-Length: ${200 * MiB}`,
      total: 200 * MiB,
      mode: 'stopOnAnswer',
    });
    expect(res.status).toBe(404);
    expect(res.sentAtAnswer).toBeLessThan(40 * MiB);
  });
});

describe('keep-alive after an early answer', () => {
  it('drains a short unread body and serves the next request on the same connection', async () => {
    const body = Buffer.alloc(Math.floor(DRAIN_BYTES / 4), 0x61);
    const res = await twoOnOneConnection(
      base,
      { head: `POST /api/file HTTP/1.1\r\nHost: test\r\n${multipart}\r\nContent-Length: ${body.length}`, body },
      'GET /healthz HTTP/1.1\r\nHost: test',
    );
    expect(res).toEqual({ first: 401, second: 200 });
  });
});
