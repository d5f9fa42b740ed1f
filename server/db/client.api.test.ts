import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('openDatabase (PGlite in a data directory)', () => {
  it('creates a new cluster, keeps what was written across reopening, and holds the directory lock', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'signage-db-'));
    dirs.push(dataDir);
    const first = await openDatabase({ kind: 'pglite-dir', dataDir });
    expect(first.driver).toBe('pglite');
    await first.pglite!.exec("create table note (id int primary key, text text); insert into note values (1, 'kept');");
    await expect(openDatabase({ kind: 'pglite-dir', dataDir })).rejects.toThrow();
    await first.close();

    const second = await openDatabase({ kind: 'pglite-dir', dataDir });
    const { rows } = await second.pglite!.query<{ text: string }>('select text from note where id = 1');
    expect(rows).toEqual([{ text: 'kept' }]);
    const buffers = await second.pglite!.query<{ shared_buffers: string }>('show shared_buffers');
    expect(buffers.rows[0]?.shared_buffers).toBe('32MB');
    await second.close();
  }, 120_000); // Creating a cluster (initdb) twice takes seconds, and much longer on a loaded 2-core machine.
});
