/**
 * CLI start-up stays light: a command loads only what it uses. Traces every module a fresh `engram`
 * process loads (ESM resolve hook + CommonJS Module._load) and checks that help and the server path of
 * the prompt hook never load the engine, zod or an SDK, and that a read never loads compromise or
 * chrono-node (write-path NLP). Timing lives in bench/startup.mjs, not here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, binBuilt, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const { dir, cleanup } = tempDir('engram-startup-');
afterAll(() => cleanup());

const TRACER = join(dir, 'trace.cjs');
writeFileSync(
  TRACER,
  `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const out = process.env.ENGRAM_TRACE_FILE;
const load = Module._load;
Module._load = function (request, ...rest) { appendFileSync(out, 'cjs ' + request + '\\n'); return load.call(this, request, ...rest); };
Module.register('data:text/javascript,' + encodeURIComponent(
  "import { appendFileSync } from 'node:fs';" +
  "export async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.ENGRAM_TRACE_FILE, 'esm ' + r.url + '\\\\n'); return r; }"));
`,
);

let runs = 0;
/** Runs the bin with the tracer; returns the exit status and every module it loaded. */
function traced(args: string[], input = ''): { status: number | null; stdout: string; stderr: string; loaded: string[] } {
  const trace = join(dir, `trace-${(runs += 1)}.txt`);
  writeFileSync(trace, '');
  const result = spawnSync(process.execPath, ['--require', TRACER, BIN, ...args], {
    encoding: 'utf8',
    input,
    env: { ...process.env, ENGRAM_TRACE_FILE: trace, ENGRAM_EMBEDDER: 'hash', ENGRAM_URL: '' },
    timeout: 120_000,
  });
  const lines = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, loaded: lines.flatMap(withBundledModules) };
}

/**
 * `npm run build` bundles the CLI's modules into dist/interfaces/cli/program.js and its chunks
 * (scripts/bundle-cli.mjs), which name the modules each holds in program-modules.json: a loaded file
 * counts as loading each of its modules (node_modules/zod/… among them), as the files tsc wrote did.
 */
const CLI_DIR = dirname(BIN);
const bundled: Record<string, string[]> = existsSync(join(CLI_DIR, 'program-modules.json'))
  ? (JSON.parse(readFileSync(join(CLI_DIR, 'program-modules.json'), 'utf8')) as Record<string, string[]>)
  : {};
const REPO = join(CLI_DIR, '..', '..', '..');

function withBundledModules(line: string): string[] {
  const file = /^esm file:\/\/.*\/dist\/interfaces\/cli\/([^/]+\.js)$/.exec(line);
  const modules = file === null ? undefined : bundled[file[1] as string];
  if (modules === undefined) return [line];
  return [line, ...modules.map((m) => `esm ${pathToFileURL(join(REPO, m)).href}`)];
}

const ENGINE = /dist\/(engram|core\/engine)\.js$/;
const HEAVY =
  /\bnode_modules\/(zod|@modelcontextprotocol|hono|@hono|pg|@electric-sql|compromise|chrono-node|better-sqlite3|@energetic-ai)\//;
const NLP = /(\bnode_modules\/(compromise|chrono-node)\/|^cjs (compromise|chrono-node)(\/|$))/;

describe.skipIf(!binBuilt)('CLI start-up loads only what the command uses', () => {
  it('help loads the command definitions, not the engine, zod or any SDK', () => {
    const run = traced(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: engram');
    expect(run.loaded.some((l) => l.includes('/dist/interfaces/cli/program.js'))).toBe(true);
    expect(run.loaded.filter((l) => ENGINE.test(l) || HEAVY.test(l))).toEqual([]);
  });

  it('the prompt hook on its server path loads neither the engine nor zod', () => {
    // An explicit --url that is down is final (no local fallback), so this stays on the server path.
    const prompt = JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt: 'which database do we use?' });
    const run = traced(
      ['hooks', 'user-prompt-submit', '--scope', 'a/b', '--url', 'http://127.0.0.1:9', '--db', join(dir, 'hook.db')],
      prompt,
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('127.0.0.1:9');
    expect(run.loaded.some((l) => l.includes('/dist/interfaces/hooks/http-client.js'))).toBe(true);
    expect(run.loaded.filter((l) => ENGINE.test(l) || HEAVY.test(l))).toEqual([]);
  });

  it('a read opens the engine without loading the write-path NLP (compromise, chrono-node) or a server SDK', () => {
    // Reads do not create a database: write one first, in a process that is not traced.
    const db = join(dir, 'stats.db');
    expect(
      runCli(['remember', 'one memory to read', '--db', db, '--scope', 'a/b'], { env: { ENGRAM_EMBEDDER: 'hash', ENGRAM_URL: '' } }).status,
    ).toBe(0);
    const run = traced(['stats', '--db', db, '--scope', 'a/b', '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toBeTypeOf('object');
    expect(run.loaded.some((l) => ENGINE.test(l))).toBe(true);
    // the tracer sees zod here, from node_modules or inside a chunk of the bundled CLI
    expect(run.loaded.some((l) => /\bnode_modules\/zod\//.test(l))).toBe(true);
    expect(run.loaded.filter((l) => NLP.test(l) || /node_modules\/(@modelcontextprotocol|hono|@hono)\//.test(l))).toEqual([]);
  });

  it('the tracer sees compromise and chrono-node when a write tags a claim', () => {
    const run = traced([
      'remember',
      '--db',
      join(dir, 'write.db'),
      '--scope',
      'a/b',
      '--layer',
      'semantic',
      "Dave's favourite editor is Emacs since 2020",
    ]);
    expect(run.status).toBe(0);
    expect(run.loaded.filter((l) => /^cjs compromise$/.test(l))).not.toEqual([]);
    expect(run.loaded.filter((l) => /^cjs chrono-node/.test(l))).not.toEqual([]);
  });
});
