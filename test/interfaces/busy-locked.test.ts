/**
 * BUSY (the write lock stayed held past the busy timeout: retry) versus LOCKED (a consolidation lease is
 * held): HTTP 503 with Retry-After versus 409, an MCP tool error marked retryable, CLI exit 5 versus 7.
 * The lock is held by a second real SQLite connection; the lease by a second store on the same file.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/engram.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { createHttpApp } from '../../src/interfaces/http/index.js';
import { toEngramError as fromPg } from '../../src/storage/postgres/pg-errors.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { binBuilt, runCli, runCliAsync } from '../helpers/cli.js';
import { call, inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'acme/busy';
let dir: string;
let cleanupDir: () => void;
let path: string;
let engram: Engram;

async function openEngine(busyTimeoutMs: number): Promise<Engram> {
  const embedder = new HashEmbedder();
  const store = await openSqliteStore({ path, embedding: { name: embedder.name, dimension: embedder.dimension }, busyTimeoutMs });
  return new Engram({ store, embedder });
}

/** Runs `body` while another connection holds the database's write lock. */
async function whileWriteLocked<T>(body: () => Promise<T>): Promise<T> {
  const raw = new Database(path);
  raw.exec('BEGIN IMMEDIATE');
  try {
    return await body();
  } finally {
    raw.exec('ROLLBACK');
    raw.close();
  }
}

beforeEach(async () => {
  ({ dir, cleanup: cleanupDir } = tempDir());
  path = join(dir, 'engram.db');
  engram = await openEngine(150);
  await engram.remember({ scope: SCOPE, layer: 'semantic', content: 'The build server is called Hopper.' });
});
afterEach(async () => {
  await engram.close();
  cleanupDir();
});

describe('BUSY: the write lock is held by another connection', () => {
  it('Engram.open({ busyTimeoutMs }) sets how long a write waits, and BUSY names the option as Engram.open spells it', async () => {
    const opened = await Engram.open({ path, embedder: 'hash', busyTimeoutMs: 200 });
    try {
      const started = Date.now();
      const error = await whileWriteLocked(() =>
        opened.remember({ scope: SCOPE, content: 'Written while locked.' }).catch((e: unknown) => e),
      );
      // well before the default 10 s
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error).toMatchObject({
        code: 'BUSY',
        message: expect.stringMatching(/more than 200 ms.*retry.*raise busyTimeoutMs \(Engram\.open\(\{ path, busyTimeoutMs \}\)/),
      });
      expect((await opened.stats({ scopes: [SCOPE] })).total).toBe(1);
    } finally {
      await opened.close();
    }
  });

  it('HTTP answers 503 BUSY with Retry-After, and the write is not applied', async () => {
    const app = createHttpApp({ engram, auth: 'open' });
    const response = await whileWriteLocked(async () =>
      app.request('/v1/memories', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scope: SCOPE, content: 'Written while locked.' }),
      }),
    );
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BUSY');
    expect(body.error.message).toMatch(/retry/i);
    const { hits } = await engram.recall('written while locked', { scopes: [SCOPE] });
    expect(hits.some((h) => h.content === 'Written while locked.')).toBe(false);
    // Once the lock is free the same request succeeds.
    const again = await app.request('/v1/memories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scope: SCOPE, content: 'Written while locked.' }),
    });
    expect(again.status).toBe(200);
  });

  it('MCP answers a tool error with code BUSY that says to retry', async () => {
    const { client, close } = await inMemoryClient(engram, [SCOPE]);
    try {
      const result = await whileWriteLocked(() => call(client, 'memory_remember', { content: 'Written while locked.' }));
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^\[BUSY\].*retry/i);
      expect(result.structuredContent).toMatchObject({ error: { code: 'BUSY', clientFault: false, retryable: true } });
    } finally {
      await close();
    }
  });

  it.skipIf(!binBuilt)('CLI remember exits 5 with a BUSY message', { timeout: 90_000 }, async () => {
    const result = await whileWriteLocked(() =>
      runCliAsync(['remember', 'Written while locked.', '--scope', SCOPE, '--db', path, '--json']),
    );
    expect(result.status).toBe(5);
    expect(JSON.parse(result.stderr.trim().split('\n').pop() as string)).toMatchObject({ error: { code: 'BUSY' } });
  });
});

describe('BUSY from PostgreSQL', () => {
  it('a lock timeout, a serialization failure and a deadlock are BUSY (retry), not a client fault', () => {
    for (const code of ['55P03', '40001', '40P01']) {
      const error = fromPg(Object.assign(new Error('driver text'), { code }), 'insert memories');
      expect(error.code).toBe('BUSY');
      expect(error.message).toMatch(/retry/i);
    }
  });
});

describe('LOCKED: a consolidation lease is held', () => {
  async function holdLease(): Promise<() => Promise<void>> {
    const embedder = new HashEmbedder();
    const holder = await openSqliteStore({ path, embedding: { name: embedder.name, dimension: embedder.dimension } });
    expect(await holder.acquireJobLock(`consolidate:${SCOPE}`, 'test-holder', 60_000)).toBe(true);
    return async () => {
      await holder.releaseJobLock(`consolidate:${SCOPE}`, 'test-holder');
      await holder.close();
    };
  }

  it('HTTP answers 409 LOCKED (no Retry-After: the wait is a whole cycle)', async () => {
    const release = await holdLease();
    try {
      const app = createHttpApp({ engram, auth: 'open' });
      const response = await app.request('/v1/consolidate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scope: SCOPE }),
      });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('LOCKED');
    } finally {
      await release();
    }
  });

  it.skipIf(!binBuilt)('CLI consolidate exits 7 with LOCKED', { timeout: 90_000 }, async () => {
    const release = await holdLease();
    try {
      const result = runCli(['consolidate', '--scope', SCOPE, '--db', path, '--json']);
      expect(result.status).toBe(7);
      expect(result.stderr).toContain('"code":"LOCKED"');
    } finally {
      await release();
    }
  });
});
