/**
 * The hook commands as Claude Code runs them: the built bin fed the hook JSON on stdin, without a
 * server (opens the store) and with a running `engram serve` (found through its discovery file).
 * `engram setup claude-code` is tested in hooks-setup.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { hookStdin, placeTranscript } from '../helpers/claude-code.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';

function hook(event: string, stdin: string, db: string, extra: string[] = []) {
  return runCli(['hooks', event, '--scope', SCOPE, '--db', db, '--embedder', 'hash', '--verbose', ...extra], {
    input: stdin,
    env: { ENGRAM_URL: '' },
  });
}

function episodeCount(db: string): number {
  const stats = json<{ byLayer: Record<string, number> }>(runCli(['stats', '--scope', SCOPE, '--db', db, '--json']));
  return stats.byLayer.episodic ?? 0;
}

describe.skipIf(!binBuilt)('engram hooks without a server', () => {
  it('stores the transcript once and prints context for a prompt', () => {
    const { dir, cleanup } = tempDir();
    try {
      const db = join(dir, 'engram.db');
      const transcript = placeTranscript(dir);
      const stop = hook('stop', hookStdin('stop', transcript), db);
      expect(stop.status, stop.stderr).toBe(0);
      expect(stop.stderr).toMatch(/"stored":3.*"server":null/);
      expect(hook('stop', hookStdin('stop', transcript), db).stderr).toMatch(/"stored":0/);
      expect(episodeCount(db)).toBe(3);
      const prompt = hook('user-prompt-submit', hookStdin('user-prompt-submit', transcript), db);
      expect(prompt.status, prompt.stderr).toBe(0);
      expect(prompt.stdout).toContain('<engram-memory>');
      expect(prompt.stdout).toContain('production');
    } finally {
      cleanup();
    }
  });

  it('reports bad input on stderr with exit 1 (never 2, which would block the prompt)', () => {
    const { dir, cleanup } = tempDir();
    try {
      const notJson = hook('user-prompt-submit', 'hello', join(dir, 'engram.db'));
      expect(notJson.status).toBe(1);
      expect(notJson.stderr).toMatch(/stdin was not JSON/);
      const noScope = runCli(['hooks', 'stop', '--db', join(dir, 'engram.db')], {
        input: hookStdin('stop', 'x'),
        env: { ENGRAM_SCOPES: '', ENGRAM_URL: '' },
      });
      expect(noScope.status).toBe(1);
      expect(noScope.stderr).toMatch(/needs a scope/);
      const unknown = runCli(['hooks', 'pre-tool-use'], { input: '{}' });
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toMatch(/unknown hook "pre-tool-use"/);
    } finally {
      cleanup();
    }
  });

  it('an unknown option is a usage error naming it (exit 1, never 2), not an internal error; redaction flags point to the environment', () => {
    const { dir, cleanup } = tempDir();
    try {
      const db = join(dir, 'engram.db');
      const redact = hook('stop', hookStdin('stop', 'x'), db, ['--no-redact']);
      expect(redact.status).toBe(1);
      expect(redact.stderr).not.toMatch(/Internal error/);
      // the word "error" is coloured when the runner's environment asks for colour (CI does)
      expect(plain(redact.stderr)).toMatch(/^error engram hooks takes no --no-redact: set ENGRAM_REDACT=off .* or ENGRAM_REDACT_PATTERNS/m);
      const pattern = hook('stop', hookStdin('stop', 'x'), db, ['--redact-pattern', 'acme=acme_[a-z]+']);
      expect(pattern.stderr).toMatch(/engram hooks takes no --redact-pattern:/);
      const typo = hook('user-prompt-submit', hookStdin('user-prompt-submit', 'x'), db, ['--scopes', 'a/b']);
      expect(typo.status).toBe(1);
      expect(plain(typo.stderr)).toMatch(/^error engram hooks: unknown option --scopes\. Run engram hooks --help for the options\.$/m);
      const missing = runCli(['hooks', 'stop', '--db', db, '--scope'], { input: '{}', env: { ENGRAM_URL: '' } });
      expect(missing.status).toBe(1);
      expect(plain(missing.stderr)).toMatch(/^error engram hooks: Option '--scope <value>' argument missing\. Run engram hooks --help/m);
      expect(missing.stderr).not.toMatch(/Internal error/);
      expect(existsSync(db)).toBe(false);
    } finally {
      cleanup();
    }
  });
});

describe.skipIf(!binBuilt)('engram hooks with a running engram serve', () => {
  let server: RunningServer;
  let dir: string;
  let cleanup: () => void;
  let db: string;

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    db = join(dir, 'engram.db');
    server = await startServe(['--db', db, '--scope', SCOPE, '--embedder', 'hash']);
  });
  afterAll(async () => {
    await server?.stop();
    cleanup?.();
  });

  it('finds the server through its discovery file and stores each message once', () => {
    const transcript = placeTranscript(dir);
    const first = hook('stop', hookStdin('stop', transcript), db);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain(`"server":"${server.url}"`);
    expect(first.stderr).toMatch(/"stored":3/);
    placeTranscript(dir, 'transcript-more.jsonl');
    expect(hook('stop', hookStdin('stop', transcript), db).stderr).toMatch(/"stored":2/);
    expect(hook('session-end', hookStdin('session-end', transcript), db).stderr).toMatch(/"stored":0/);
    const prompt = hook('user-prompt-submit', hookStdin('user-prompt-submit', transcript), db);
    expect(prompt.stderr).toContain(`"server":"${server.url}"`);
    expect(prompt.stdout).toContain('production');
  });

  it('an explicit --url that is down is an error, not a silent local fallback', () => {
    const result = hook('user-prompt-submit', hookStdin('user-prompt-submit', '/none'), db, ['--url', 'http://127.0.0.1:9']);
    expect(result.status).toBe(1);
  });
});

/** Text without its ANSI colour codes. */
function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
