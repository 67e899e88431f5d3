/**
 * `engram serve` options beyond the basics: a consolidation schedule ("on a schedule in the
 * server") and the HTTP body limit. Runs the built binary on a temp SQLite file.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

describe('engram serve options', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function serveOn(args: string[]): Promise<{ server: RunningServer; db: string }> {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const db = join(dir, 'engram.db');
    const server = await startServe(['--db', db, '--embedder', 'hash', '--scope', 't/a', ...args]);
    cleanups.push(() => server.stop());
    return { server, db };
  }

  it('--consolidate-every runs the cycle on the served scopes and stores its report', async () => {
    const { server, db } = await serveOn(['--consolidate-every', '0.01']);
    expect(server.output()).toContain('consolidation: every 0.01 min on t/a');
    const response = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        scope: 't/a',
        content: 'Grasped the coffee mug.',
        perception: { objects: ['coffee_mug'] },
        outcome: { success: true },
      }),
    });
    expect(response.status).toBe(200);
    for (let waited = 0; waited < 30_000 && !server.output().includes('engram serve: consolidated t/a'); waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(server.output()).toContain('engram serve: consolidated t/a');
    await server.stop();
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    try {
      const last = await engram.store.getState('t/a', 'consolidate/report/last');
      expect(last?.value).toMatchObject({ scope: 't/a', phases: expect.arrayContaining([expect.objectContaining({ name: 'extract' })]) });
    } finally {
      await engram.close();
    }
  }, 90_000);

  it('--max-body-bytes limits request bodies (413, nothing written)', async () => {
    const { server } = await serveOn(['--max-body-bytes', '300']);
    const response = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scope: 't/a', content: 'x'.repeat(1_000) }),
    });
    expect(response.status).toBe(413);
    const stats = await fetch(`${server.url}/v1/stats?scopes=t/a`).then((r) => r.json() as Promise<{ total: number }>);
    expect(stats.total).toBe(0);
  }, 90_000);

  it('rejects a schedule that is not a positive number, saying how to write it', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const result = runCli(['serve', '--db', join(dir, 'e.db'), '--embedder', 'hash', '--port', '0', '--consolidate-every', 'soon']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--consolidate-every must be a positive number of minutes/);
  }, 60_000);

  it('rejects a port that is not one (flag or $PORT) with a clear message, not an internal error', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const db = join(dir, 'e.db');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--port', 'abc'], {}, /--port must be a whole number from 0 to 65535 .*got "abc"/],
      [['--port', '99999'], {}, /--port must be a whole number from 0 to 65535 .*got "99999"/],
      [['--port', '-1'], {}, /--port must be a whole number/],
      [[], { PORT: 'http' }, /PORT \(from the environment\) must be a whole number .*got "http"/],
    ];
    for (const [args, env, message] of cases) {
      const result = runCli(['serve', '--db', db, '--embedder', 'hash', ...args], { env });
      expect(result.status, args.join(' ') || JSON.stringify(env)).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/Internal error/);
    }
  }, 60_000);
});
