/**
 * `engram serve` listens at once and warms up (model, write path, read path) in the background,
 * without writing anything; on a missing file it creates the database and says so on stderr.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt } from '../helpers/cli.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

describe.skipIf(!binBuilt)('engram serve warm-up', { timeout: 120_000 }, () => {
  let dir: string;
  let cleanup: () => void;
  let server: RunningServer;

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    server = await startServe(['--db', join(dir, 'fresh.db'), '--embedder', 'hash', '--scope', 'acme/warm', '--auth', 'open'], {
      env: { ENGRAM_URL: '' },
      warm: false,
    });
  });
  afterAll(async () => {
    await server.stop();
    cleanup();
  });

  it('warms up after it listens, says so, and writes nothing', async () => {
    const output = server.output();
    expect(output).toContain('created a new database at');
    await expect.poll(() => server.output(), { timeout: 60_000, interval: 100 }).toMatch(/warmed up in \d+ ms/);
    const all = server.output();
    expect(all.indexOf('listening on')).toBeLessThan(all.indexOf('warmed up in'));
    const stats = await fetch(`${server.url}/v1/stats?scopes=acme/warm`);
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ total: 0, edges: 0 });
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
  });
});
