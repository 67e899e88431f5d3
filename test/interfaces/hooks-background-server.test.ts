/**
 * Hooks without a separately started server: the first hook starts a background `engram serve` for
 * its database (detached, on 127.0.0.1, discoverable), two hooks racing to start it start one, the
 * server answers them even though the database has an API key (the discovery file's per-run token),
 * and it exits by itself after its idle period. Scopes come from the template and the hook's cwd.
 * The server is shared by every project, so it takes no project's scopes or redaction switch from the
 * hook that started it; a discovery file left by a server that died, its pid now another process's,
 * is replaced rather than making every hook open the store itself.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { createServeApp } from '../../src/interfaces/cli/serve/serve-app.js';
import { runHook } from '../../src/interfaces/hooks/run-hook.js';
import { ensureServer } from '../../src/interfaces/hooks/server-starter.js';
import { binBuilt, json, runCli, runCliAsync } from '../helpers/cli.js';
import { SESSION_ID, placeTranscript } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';
import { discoveryPath, readDiscovery, removeDiscovery, writeDiscovery, type ServerInfo } from '../../src/interfaces/hooks/discovery.js';

const { dir, cleanup } = tempDir();
const db = join(dir, 'engram.db');
const project = join(dir, 'My Shop');
const cwd = join(project, 'src', 'api');
mkdirSync(join(project, '.git'), { recursive: true });
mkdirSync(cwd, { recursive: true });
// `My Shop` is not a clean segment: its readable part plus a digest of the name (hooks-scope-template.test.ts)
const SCOPE = 'acme/projects/My-Shop-b14e7670';
const env = { ENGRAM_HOOKS_START_SERVER: '1', ENGRAM_API_KEY: '', ENGRAM_URL: '', ENGRAM_SCOPES: '' };
const flags = [
  '--scope-template',
  '{tenant}/projects/{repo}',
  '--tenant',
  'acme',
  '--user-scope',
  'acme/users/alice',
  '--db',
  db,
  '--embedder',
  'hash',
  '--idle-minutes',
  '0.1',
  '--verbose',
];

function detail(stderr: string): Record<string, unknown> {
  const line = stderr.split('\n').find((l) => l.startsWith('engram hooks '));
  if (line === undefined) throw new Error(`no detail line in: ${stderr}`);
  return JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
}

function stdin(event: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: SESSION_ID,
    transcript_path: join(dir, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  });
}

afterAll(() => {
  // a server the test started and that did not exit: stop it by its own pid
  try {
    const info = JSON.parse(readFileSync(discoveryPath(db), 'utf8')) as { pid: number };
    process.kill(info.pid, 'SIGTERM');
  } catch {
    // gone already
  }
  cleanup();
});

describe.skipIf(!binBuilt)('hooks start their own background server', () => {
  it('starts one server for two racing hooks, works with an API key in the database, and exits when idle', async () => {
    expect(runCli(['keys', 'create', '--tenant', 'acme', '--db', db, '--embedder', 'hash']).status).toBe(0);
    // the session runs in the project: its transcript's entries carry that cwd (the scope comes from the first)
    const transcript = placeTranscript(dir);
    writeFileSync(transcript, readFileSync(transcript, 'utf8').replaceAll('"cwd":"/home/dev/shop"', `"cwd":${JSON.stringify(cwd)}`));
    const [a, b] = await Promise.all(
      [0, 1].map(() => runCliAsync(['hooks', 'stop', ...flags], { env, input: stdin('Stop', { stop_hook_active: false }) })),
    );
    for (const run of [a, b]) expect(run?.status, run?.stderr).toBe(0);
    const details = [a, b].map((run) => detail(run?.stderr ?? ''));
    expect(details.filter((d) => d.startedServer === true)).toHaveLength(1);
    for (const d of details) {
      expect(d.scope).toBe(SCOPE);
      expect(d.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    }
    expect(details.reduce((n, d) => n + Number(d.stored ?? 0), 0)).toBe(3);

    const prompt = runCli(['hooks', 'user-prompt-submit', ...flags], {
      env,
      input: stdin('UserPromptSubmit', { prompt: 'Where do we deploy the shop now?' }),
    });
    expect(prompt.status, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('production');
    expect(detail(prompt.stderr).server).toBe(details[0]?.server);
    const stats = json<{ byLayer: Record<string, number> }>(runCli(['stats', '--scope', SCOPE, '--db', db, '--json']));
    expect(stats.byLayer.episodic).toBe(3);

    // idle for 6 s: the server removes its discovery file and exits
    const until = Date.now() + 60_000;
    while (existsSync(discoveryPath(db)) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    expect(existsSync(discoveryPath(db))).toBe(false);
    expect(readFileSync(`${db}.serve.log`, 'utf8')).toMatch(/listening on http:\/\/127\.0\.0\.1/);
  }, 120_000);
});

/**
 * Stands in for the `engram` a hook runs (`engram serve --db …`): records the environment it was
 * started with next to the database, writes a discovery file naming itself, and stays alive a while.
 */
const RECORDING_SERVE = `
import { writeFileSync } from 'node:fs';
const db = process.argv[process.argv.indexOf('--db') + 1];
const pick = (name) => process.env[name] ?? null;
writeFileSync(db + '.env.json', JSON.stringify({ scopes: pick('ENGRAM_SCOPES'), redact: pick('ENGRAM_REDACT'), patterns: pick('ENGRAM_REDACT_PATTERNS') }));
writeFileSync(db + '.serve.json', JSON.stringify({ url: 'http://127.0.0.1:9', pid: process.pid, db, startedAt: new Date().toISOString() }));
setTimeout(() => {}, 60_000);
`;

describe('the background server is shared by every project', () => {
  it('takes neither ENGRAM_SCOPES nor ENGRAM_REDACT from the hook that starts it; keeps ENGRAM_REDACT_PATTERNS', async () => {
    const own = tempDir();
    const saved = { scopes: process.env.ENGRAM_SCOPES, redact: process.env.ENGRAM_REDACT, patterns: process.env.ENGRAM_REDACT_PATTERNS };
    const patterns = JSON.stringify([{ kind: 'acme-key', pattern: 'acme_[a-z]{8}' }]);
    let pid: number | undefined;
    try {
      const script = join(own.dir, 'serve.mjs');
      writeFileSync(script, RECORDING_SERVE);
      const ownDb = join(own.dir, 'engram.db');
      // project A's hook: its own scope, and redaction off for its fixtures
      Object.assign(process.env, { ENGRAM_SCOPES: 'acme/projects/a', ENGRAM_REDACT: 'off', ENGRAM_REDACT_PATTERNS: patterns });
      const { info, started } = await ensureServer({ db: ownDb, command: [process.execPath, script], waitMs: 20_000 });
      pid = info?.pid;
      expect(started).toBe(true);
      expect(JSON.parse(readFileSync(`${ownDb}.env.json`, 'utf8'))).toEqual({ scopes: null, redact: null, patterns });
    } finally {
      for (const [name, value] of [
        ['ENGRAM_SCOPES', saved.scopes],
        ['ENGRAM_REDACT', saved.redact],
        ['ENGRAM_REDACT_PATTERNS', saved.patterns],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      if (pid !== undefined) process.kill(pid, 'SIGTERM');
      own.cleanup();
    }
  });
});

/** A loopback port nobody listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a stale discovery file', () => {
  it('whose pid is alive but whose server refuses is removed, and a server is started and used', async () => {
    const own = tempDir();
    const ownDb = join(own.dir, 'engram.db');
    const engram = await Engram.open({ path: ownDb, embedder: 'hash' });
    const running = serve({ fetch: createServeApp({ engram, scopes: [], auth: 'auto' }).fetch, port: 0, hostname: '127.0.0.1' });
    try {
      await engram.remember({ scope: SCOPE, content: 'The shop deploys to production at prod:/srv/shop.', layer: 'semantic' });
      await new Promise<void>((resolve) => running.once('listening', () => resolve()));
      const url = `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
      // the server died without removing its file; its pid now belongs to a live process (this one)
      const stale: ServerInfo = {
        url: `http://127.0.0.1:${await closedPort()}`,
        pid: process.pid,
        db: ownDb,
        startedAt: new Date().toISOString(),
      };
      writeDiscovery(stale);
      removeDiscovery(ownDb, stale.pid, url); // names another server: kept
      expect(readDiscovery(ownDb)).toEqual(stale);

      let starts = 0;
      const outcome = await runHook(
        'user-prompt-submit',
        JSON.stringify({ session_id: SESSION_ID, hook_event_name: 'UserPromptSubmit', prompt: 'Where does the shop deploy to?' }),
        {
          scopes: [SCOPE],
          db: ownDb,
          budgetMs: 5_000,
          openEngine: () => Promise.reject(new Error('the hook opened the store itself')),
          startServer: async () => {
            starts += 1;
            expect(existsSync(discoveryPath(ownDb))).toBe(false);
            const info: ServerInfo = { url, pid: process.pid, db: ownDb, startedAt: new Date().toISOString() };
            writeDiscovery(info);
            return { info, started: true };
          },
        },
      );
      expect(starts).toBe(1);
      expect(outcome.detail).toMatchObject({ server: url, startedServer: true });
      expect(outcome.stdout).toContain('The shop deploys to production at prod:/srv/shop.');
    } finally {
      await new Promise<void>((resolve) => running.close(() => resolve()));
      await engram.close();
      own.cleanup();
    }
  });
});
