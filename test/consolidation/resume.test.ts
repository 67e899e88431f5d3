import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generateEpisodeStream } from '../../src/consolidation/synthetic-stream.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import { Engram } from '../../src/index.js';
import { binBuilt } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { snapshot } from './store-snapshot.js';

const SCRIPT = fileURLToPath(new URL('../fixtures/consolidate/kill-mid-phase.mjs', import.meta.url));
const SCOPE = 'acme/robot';
const T0 = Date.UTC(2026, 2, 1);
const CONFIG = { batchSize: 5, pageSize: 20, lockTtlMs: 1500 };
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A database holding the same seeded stream (plus important notes, so reflection runs). */
async function prepared(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  const engram = await Engram.open({ path, embedder: 'hash', clock: new ManualClock(T0) });
  const { episodes } = generateEpisodeStream({ seed: 5, start: T0 - 5 * 86_400_000 });
  await engram.remember(episodes.map((e) => ({ ...e, scope: SCOPE })));
  await engram.remember(
    Array.from({ length: 12 }, (_, i) => ({
      scope: SCOPE,
      content: `Deploy ${i} failed because the migration timed out`,
      importance: 0.9,
    })),
  );
  await engram.close();
  return path;
}

function killAt(path: string, phase: string, batch: number) {
  return spawnSync(process.execPath, [SCRIPT, path, SCOPE, phase, String(batch), String(T0)], {
    encoding: 'utf8',
    env: { ...process.env, CONSOLIDATION_CONFIG: JSON.stringify(CONFIG) },
    timeout: 60_000,
  });
}

describe.skipIf(!binBuilt)('resume after a kill (needs `npm run build`)', () => {
  it('a cycle SIGKILLed mid-phase resumes where it stopped and ends with the same store as an uninterrupted run', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const interrupted = await prepared(dir, 'interrupted.db');
    const reference = await prepared(dir, 'reference.db');

    // Killed twice: during ground (statistics half written), then (resumed) during promote.
    const first = killAt(interrupted, 'ground', 2);
    expect(first.signal).toBe('SIGKILL');
    await new Promise((r) => setTimeout(r, CONFIG.lockTtlMs + 200));
    const second = killAt(interrupted, 'promote', 1);
    expect(second.signal).toBe('SIGKILL');

    const clock = new ManualClock(T0);
    const a = await Engram.open({ path: interrupted, embedder: 'hash', clock, consolidation: CONFIG });
    cleanups.push(() => a.close());
    // The dead holder's lease still runs: a clear LOCKED, then free after it expires.
    await expect(a.consolidate({ scope: SCOPE })).rejects.toMatchObject({ code: 'LOCKED' });
    await new Promise((r) => setTimeout(r, CONFIG.lockTtlMs + 200));
    const resumed = await a.consolidate({ scope: SCOPE });
    expect(resumed.resumed).toBe(true);
    expect(resumed.phases.map((p) => p.name)).toEqual([
      'dedup',
      'supersede',
      'extract',
      'ground',
      'promote',
      'recombine',
      'insight',
      'reflect',
      'affect',
      'decay',
      'compress',
    ]);

    const b = await Engram.open({ path: reference, embedder: 'hash', clock, consolidation: CONFIG });
    cleanups.push(() => b.close());
    const straight = await b.consolidate({ scope: SCOPE });
    expect(straight.resumed).toBe(false);

    const left = await snapshot(a, SCOPE);
    const right = await snapshot(b, SCOPE);
    expect(left.records.length).toBeGreaterThan(150);
    expect(left.records.filter((r) => r.startsWith('statistical')).length).toBeGreaterThan(10);
    expect(left).toEqual(right);
    // Same totals per phase as the straight run; each item examined once, however often the cycle was killed.
    for (const name of ['ground', 'promote', 'reflect']) {
      const x = resumed.phases.find((p) => p.name === name);
      const y = straight.phases.find((p) => p.name === name);
      expect([x?.created, x?.updated], name).toEqual([y?.created, y?.updated]);
    }
    for (const x of resumed.phases) expect(x.examined, x.name).toBe(straight.phases.find((p) => p.name === x.name)?.examined);
  });
});
