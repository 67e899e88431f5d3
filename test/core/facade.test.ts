// Engram composes consolidation and serving on the record facade; EngramCore is its deprecated alias.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engram, EngramCore, ManualClock, type OpenOptions } from '../../src/index.js';
import { EngramCore as RecordFacade } from '../../src/core/engine.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/users/alice';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('the Engram facade', () => {
  it('Engram.open refuses a missing path and a bad workers count before opening anything', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const path = join(dir, 'never.db');
      for (const options of [{}, { path: 5 }, { path: '' }]) {
        await expect(Engram.open(options as never)).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/needs a path/),
        });
      }
      for (const workers of [-1, 1.5, Number.NaN]) {
        await expect(Engram.open({ path, embedder: 'hash', workers })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/workers must be a whole number ≥ 0/),
        });
      }
      expect(existsSync(path)).toBe(false);
    } finally {
      cleanup();
    }
  });

  it('Engram.open refuses null options, a bad busyTimeoutMs and a bad background before opening anything', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const path = join(dir, 'never.db');
      await expect(Engram.open(null as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/needs a path/),
      });
      const cases: [Partial<OpenOptions>, RegExp][] = [
        [
          { busyTimeoutMs: -1 },
          /busyTimeoutMs must be a whole number of milliseconds from 0 to 2147483647 \(default 10000\), got the number -1/,
        ],
        [{ busyTimeoutMs: 1.5 }, /busyTimeoutMs must be a whole number/],
        [{ busyTimeoutMs: Infinity }, /busyTimeoutMs must be .*, got Infinity/],
        [{ busyTimeoutMs: '5000' as never }, /busyTimeoutMs must be .*, got a string/],
        [{ background: 'yes' as never }, /background must be true, false or \{ idleMs, duty \}, got a string/],
        [{ background: { duty: 2 } }, /Engram.open option background: duty is too large \(maximum 1\)/],
        [{ background: null as never }, /Engram.open option background: must be an object, not null/],
      ];
      for (const [options, message] of cases) {
        await expect(Engram.open({ path, embedder: 'hash', ...options })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(message),
        });
      }
      expect(existsSync(path)).toBe(false);
    } finally {
      cleanup();
    }
  });

  it('Engram.open refuses a misspelt option, a bad clock and bad sleep-cycle settings before opening anything', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const path = join(dir, 'never.db');
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ embeder: 'hash' }, /Engram.open has no option "embeder"; its options are path, embedder, /],
        [{ clock: { now: () => undefined } }, /clock option needs a now\(\) that returns epoch milliseconds, got undefined/],
        [{ clock: 5 }, /clock option needs a now\(\)/],
        [{ consolidation: { decai: {} } }, /consolidation has no setting "decai"; its settings are sample, grounding, /],
        [
          { consolidation: { decay: { idleDays: { low: 'seven' } } } },
          /consolidation.decay.idleDays.low must be a finite number \(default 7\), got "seven"/,
        ],
        [{ consolidation: { decay: { graceDays: -1 } } }, /consolidation.decay.graceDays must be a number ≥ 0/],
        [{ consolidation: { lockTtlMs: '60s' } }, /consolidation.lockTtlMs must be a finite number \(default 60000\), got "60s"/],
        [{ consolidation: { batchSize: 0 } }, /consolidation.batchSize must be a whole number above 0/],
        [{ consolidation: { rewardLearning: { outcomes: 'success' } } }, /consolidation.rewardLearning.outcomes must be a list of strings/],
        [{ consolidation: { decay: 7 } }, /consolidation.decay must be an object of settings/],
        [{ consolidation: { phaseLock: { cycles: ['hours'] } } }, /consolidation.phaseLock.cycles must be a list of "hour", "weekday"/],
        [{ consolidation: { affect: { mood: { period: 'days' } } } }, /consolidation.affect.mood.period must be one of "day", "week"/],
      ];
      for (const [options, message] of cases) {
        await expect(Engram.open({ path, embedder: 'hash', ...options } as never)).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(message),
        });
      }
      expect(existsSync(path)).toBe(false);
      expect(() => new ManualClock(undefined as never)).toThrow(/new ManualClock\(start\) needs epoch milliseconds, got undefined/);
      expect(() => new ManualClock(0).set(Number.NaN)).toThrow(/ManualClock.set\(at\) needs epoch milliseconds/);
    } finally {
      cleanup();
    }
  });

  it('overriding one sleep-cycle threshold keeps the others at their defaults', async () => {
    const DAY = 86_400_000;
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await tempEngram({ clock, consolidation: { decay: { idleDays: { low: 3 } } } });
    cleanups.push(t.cleanup);
    const scope = 'acme/decay';
    const [low, medium, high] = await t.engram.remember([
      { scope, content: 'a low note', importance: 0.2 },
      { scope, content: 'a medium note', importance: 0.6 },
      { scope, content: 'a high note', importance: 0.9 },
    ]);
    const statuses = async () => (await t.engram.store.getMemories([low!.id, medium!.id, high!.id], [scope])).map((r) => r.status);
    clock.set(Date.UTC(2026, 0, 1) + 3 * DAY);
    await t.engram.consolidate({ scope, phases: ['decay'] });
    expect(await statuses()).toEqual(['decayed', 'active', 'active']);
    // medium (14 days) and high (30 days) keep their defaults
    clock.set(Date.UTC(2026, 0, 1) + 200 * DAY);
    await t.engram.consolidate({ scope, phases: ['decay'] });
    expect(await statuses()).toEqual(['expired', 'decayed', 'decayed']);
  });

  it('exports EngramCore as the same class as Engram, for one release', () => {
    expect(EngramCore).toBe(Engram);
  });

  it('Engram.create composes context, predict and consolidation on parts of your own', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    const engram = await Engram.create({
      store: t.engram.store,
      embedder: t.engram.embedder,
      clock: new ManualClock(Date.parse('2025-01-01')),
    });
    expect(engram).toBeInstanceOf(Engram);
    await engram.remember({ scope: SCOPE, layer: 'procedural', content: 'Always answer in English.' });
    const context = await engram.context({ scopes: [SCOPE], message: 'hello', budgetMs: 60_000 });
    expect(context.parts.rules.items.map((r) => r.content)).toContain('Always answer in English.');
    const report = await engram.consolidate({ scope: SCOPE, phases: ['decay'] });
    expect(report.scope).toBe(SCOPE);
  });

  it('the record facade alone has no consolidation or serving', () => {
    expect('context' in RecordFacade.prototype).toBe(false);
    expect('consolidate' in RecordFacade.prototype).toBe(false);
    expect('startBackground' in RecordFacade.prototype).toBe(false);
  });

  it('a rule written after a context build is in the next build: the cache follows the facade', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    await t.engram.remember({ scope: SCOPE, layer: 'procedural', content: 'Reply briefly.' });
    const first = await t.engram.context({ scopes: [SCOPE], message: 'hi', budgetMs: 60_000 });
    expect(first.parts.rules.items).toHaveLength(1);
    await t.engram.remember({ scope: SCOPE, layer: 'procedural', content: 'Use metric units.' });
    const second = await t.engram.context({ scopes: [SCOPE], message: 'hi', budgetMs: 60_000 });
    expect(second.parts.rules.items).toHaveLength(2);
  });
});
