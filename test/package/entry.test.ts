/**
 * The package's main entry (`dist/index.js`, what `import 'engram'` gives) loads no storage or model
 * driver until a store is opened, and exports exactly the curated API. A child Node process imports it
 * with a probe that reports every driver module resolved (ESM and CommonJS); opening a store shows the
 * probe does see them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const DRIVERS = [
  'better-sqlite3',
  'pg',
  'sqlite-vec',
  'onnxruntime-node',
  '@electric-sql/pglite',
  '@energetic-ai/core',
  'ai',
  '@langchain/core',
];

const PROBE = `
const M = require('node:module');
const drivers = ${JSON.stringify(DRIVERS)};
const watched = (s) => drivers.find((d) => s === d || s.startsWith(d + '/'));
const report = (s) => { const d = watched(s); if (d !== undefined) process.stderr.write('LOADED ' + d + '\\n'); };
const load = M._load;
M._load = function (request, ...rest) { report(request); return load.call(this, request, ...rest); };
M.register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, n) { const d = ' + JSON.stringify(drivers) + '.find((d) => s === d || s.startsWith(d + "/")); if (d !== undefined) process.stderr.write("LOADED " + d + "\\\\n"); return n(s, c); }'));
`;

/** The curated exports of the main entry; adding one is a decision, made here. */
const CURATED = [
  'BUILT_IN_RELATIONS',
  'DEFAULT_CONTEXT_BUDGET_MS',
  'DEFAULT_CONTEXT_MAX_TOKENS',
  'DEFAULT_RECALL_CONFIG',
  'Engram',
  'EngramCore',
  'EngramError',
  'LAYERS',
  'ManualClock',
  'ManualScheduler',
  'OpenAiCompatibleLlm',
  'Redactor',
  'STATUSES',
  'assertReadScopes',
  'assertScope',
  'consoleLogger',
  'contextInputSchema',
  'createEmbedder',
  'createRedactor',
  'isEngramError',
  'noopLogger',
  'normalizeRelationName',
  'normalizeTokens',
  'predictInputSchema',
  'recallOptionsSchema',
  'rememberInputSchema',
  'statisticalMetricSchema',
  'systemClock',
  'updateInputSchema',
  'verbalForm',
];

describe('the main entry dist/index.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-entry-'));
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, PROBE);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const entry = new URL('../../dist/index.js', import.meta.url).href;

  const run = (script: string) => {
    // run from the package root, so `engram/<subpath>` resolves through package.json "exports" to dist/
    const child = spawnSync(process.execPath, ['--require', probe, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    });
    const loaded = [...child.stderr.matchAll(/^LOADED (.+)$/gm)].map((m) => m[1]);
    return { status: child.status, stdout: child.stdout, stderr: child.stderr, loaded: [...new Set(loaded)] };
  };

  it('loads no storage or model driver on import, and exports exactly the curated API', () => {
    const got = run(`const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).sort()));`);
    expect(got.status, got.stderr).toBe(0);
    expect(got.loaded).toEqual([]);
    expect(JSON.parse(got.stdout)).toEqual([...CURATED].sort());
  });

  it('loads the SQLite driver once a store is opened (the probe sees drivers)', () => {
    const db = join(dir, 'engram.db');
    const got = run(
      `const { Engram } = await import(${JSON.stringify(entry)}); const e = await Engram.open({ path: ${JSON.stringify(db)}, embedder: 'hash' }); await e.close();`,
    );
    expect(got.status, got.stderr).toBe(0);
    expect(got.loaded).toContain('better-sqlite3');
    expect(got.loaded).not.toContain('pg');
  });

  it('resolves the framework adapters engram/ai-sdk and engram/langchain from dist, each loading only its own framework', () => {
    const subpaths = {
      'engram/ai-sdk': ['engramContextMiddleware', 'engramTools'],
      'engram/langchain': ['EngramChatMessageHistory', 'EngramRetriever'],
    };
    for (const [subpath, exported] of Object.entries(subpaths)) {
      const got = run(
        `const m = await import(${JSON.stringify(subpath)}); console.log(JSON.stringify(Object.keys(m).sort()), import.meta.resolve(${JSON.stringify(subpath)}));`,
      );
      expect(got.status, got.stderr).toBe(0);
      const [keys, url] = got.stdout.trim().split(' ');
      expect(JSON.parse(keys as string)).toEqual(exported);
      expect(url).toMatch(new RegExp(`/dist/adapters/${subpath.split('/')[1]}/index\\.js$`));
      expect(got.loaded).toEqual([subpath === 'engram/ai-sdk' ? 'ai' : '@langchain/core']);
    }
  });
});
