/**
 * Hooks without a separately started server: the first hook starts a background `engram serve` for
 * its database (detached, on 127.0.0.1, discoverable), two hooks racing to start it start one, the
 * server answers them even though the database has an API key (the discovery file's per-run token),
 * and it exits by itself after its idle period. Scopes come from the template and the hook's cwd.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binBuilt, json, runCli, runCliAsync } from '../helpers/cli.js';
import { SESSION_ID, placeTranscript } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';
import { discoveryPath } from '../../src/interfaces/hooks/discovery.js';

const { dir, cleanup } = tempDir();
const db = join(dir, 'engram.db');
const project = join(dir, 'My Shop');
const cwd = join(project, 'src', 'api');
mkdirSync(join(project, '.git'), { recursive: true });
mkdirSync(cwd, { recursive: true });
const SCOPE = 'acme/projects/My-Shop';
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
    placeTranscript(dir);
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
