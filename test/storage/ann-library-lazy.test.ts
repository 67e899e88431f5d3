import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { locateUsearch } from '../../src/storage/sqlite/ann/ann-library.js';
import { binBuilt } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SCRIPT = fileURLToPath(new URL('../fixtures/storage/ann-lazy.mjs', import.meta.url));
const installed = locateUsearch() !== undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

describe.skipIf(!binBuilt)('the optional HNSW library (needs `npm run build`)', () => {
  it('is not loaded by opening a store and recalling on a small one; a scope above the threshold loads it', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const run = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      afterSmall: { loaded: boolean; cached: boolean; hits: number };
      afterLarge: { loaded: boolean; cached: boolean; ready: string[] };
    };
    expect(report.afterSmall).toEqual({ loaded: false, cached: false, hits: 1 });
    if (installed) expect(report.afterLarge).toEqual({ loaded: true, cached: true, ready: ['a/b'] });
  });

  it.skipIf(!installed)('loads from `node -e` (cwd outside the package) without an unbounded native lookup', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    // imported from -e, usearch's ESM entry searched for its binary up a relative path without end
    const source = `import(${JSON.stringify(pathToFileURL(SCRIPT).href)})`;
    const run = spawnSync(process.execPath, ['-e', source, dir], { encoding: 'utf8', timeout: 60_000, cwd: dir });
    expect(run.signal, 'the child was killed by the timeout').toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ afterLarge: { loaded: true, ready: ['a/b'] } });
  });
});
