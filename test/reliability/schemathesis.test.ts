/**
 * Schemathesis against `/openapi.json` of a running `engram serve` (hash embedder, temp SQLite file),
 * with a fixed seed and example budget; the check is `not_a_server_error`. Schemathesis comes from
 * PyPI into .venv-ci (see .ci/run); without it the test skips saying so, except in CI, where it fails.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt } from '../helpers/cli.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';
import { count, printFigures } from './figures.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ST = process.env.SCHEMATHESIS_BIN ?? join(ROOT, '.venv-ci', 'bin', 'st');
const installed = existsSync(ST);
const inCi = process.env.CI === 'true';
const MAX_EXAMPLES = 5;
// NDJSON bodies (the dump import) are serialised as JSON lines by this hooks file
const HOOKS = join(ROOT, 'test', 'reliability', 'schemathesis_hooks.py');

if (!installed && !inCi) {
  describe.skip(`schemathesis (skipped: not installed at ${ST}; .ci/run installs it: python3 -m venv .venv-ci && .venv-ci/bin/pip install schemathesis)`, () => {
    it('finds no server error in /openapi.json', () => undefined);
  });
} else {
  describe('schemathesis against /openapi.json', () => {
    const tmp = tempDir('engram-st-');
    let server: RunningServer;
    beforeAll(async () => {
      expect(installed, `schemathesis is not installed at ${ST} (CI must install it: see .ci/run)`).toBe(true);
      expect(binBuilt, 'dist/ is missing: run npm run build').toBe(true);
      server = await startServe(['--db', join(tmp.dir, 'st.db'), '--embedder', 'hash', '--auth', 'open']);
    });
    afterAll(async () => {
      await server?.stop();
      tmp.cleanup();
      printFigures('schemathesis');
    });

    it(`finds no server error (seed 1, at most ${MAX_EXAMPLES} examples per operation)`, async () => {
      const args = [
        'run',
        `${server.url}/openapi.json`,
        // the document's `servers` names the default port; test the server this test started
        '--url',
        server.url,
        '--checks',
        'not_a_server_error',
        '--max-examples',
        String(MAX_EXAMPLES),
        '--seed',
        '1',
        '--generation-deterministic',
        '--phases',
        'examples,fuzzing',
        '--workers',
        '2',
        '--request-timeout',
        '20',
        '--no-color',
      ];
      const result = await new Promise<{ status: number | null; out: string }>((resolve, reject) => {
        // cwd in the temp dir: schemathesis keeps a cache directory where it runs
        const child = spawn(ST, args, {
          cwd: tmp.dir,
          env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false', SCHEMATHESIS_HOOKS: HOOKS },
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, out }));
      });
      const tested = /(\d+)\s+generated/i.exec(result.out);
      if (tested !== null) count('schemathesis: test cases generated', Number(tested[1]));
      // Schemathesis closes like pytest ("=== 1 warning in 26s ==="); CI reads such rule lines as a test
      // runner's verdict, so only its summary lines are echoed, without the rules.
      const summary = result.out
        .split('\n')
        .slice(-25)
        .filter((line) => !/^={3,}/.test(line.trim()));
      console.log(summary.join('\n'));
      expect(result.status, result.out.slice(-4000)).toBe(0);
      expect(server.child.exitCode, 'the server died').toBeNull();
    }, 400_000);
  });
}
