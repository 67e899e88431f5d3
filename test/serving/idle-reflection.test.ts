/**
 * Idle reflection (seed 004): a scope reflects once it has had no write for the idle time and its
 * importance since the last reflection crossed the threshold — not on a schedule. In process with a
 * manual clock and scheduler (real SQLite file, hash embedder), and once through a real `engram serve
 * --idle-reflect-after` over HTTP.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import { ManualScheduler } from '../../src/core/ports/scheduler.js';
import type { IdleReflectionEvent } from '../../src/consolidation/idle-reflection.js';
import { binBuilt } from '../helpers/cli.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

const SCOPE = 'lab/agents/r1';
const OTHER = 'lab/agents/r2';
const MINUTE = 60_000;

function notes(scope: string, n: number, importance: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({
    scope,
    content: `Calibrated the left gripper on run ${from + i + 1}; the grip force drifted again.`,
    importance,
  }));
}

describe('idle reflection in process (manual clock and scheduler)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('refuses missing or bad options with INVALID_INPUT naming them, and starts nothing', async () => {
    const ctx = await tempEngram();
    cleanups.push(ctx.cleanup);
    const { engram } = ctx;
    const cases: [unknown, RegExp][] = [
      [undefined, /startIdleReflection options: must be an object \(it is missing\)/],
      [null, /startIdleReflection options: must be an object, not null/],
      [{ idleMs: 0 }, /idleMs must be greater than 0/],
      [{ idleMs: 'soon' }, /idleMs must be a number, not a string/],
      [{ idleMs: Infinity }, /idleMs must be a number, not Infinity/],
      [{ idleMs: 3_000_000_000 }, /idleMs is too large \(maximum 2147483647\)/],
      [{ idleMs: MINUTE, threshold: -1 }, /threshold must be greater than 0/],
      [{ idleMs: MINUTE, clock: {} }, /clock must be a clock: an object with now\(\)/],
      [{ idleMs: MINUTE, onEvent: 'log' }, /onEvent must be a function/],
      [{ idleMs: MINUTE, idle: true }, /has unknown field\(s\) idle/],
    ];
    for (const [options, message] of cases) {
      expect(() => engram.startIdleReflection(options as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(message) }),
      );
    }
    expect(engram.idleReflection).toBeUndefined();
  });

  it('reflects a scope only once it is idle and its importance crossed the threshold', async () => {
    const ctx = await tempEngram();
    cleanups.push(ctx.cleanup);
    const { engram } = ctx;
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const scheduler = new ManualScheduler(clock);
    const events: IdleReflectionEvent[] = [];
    engram.startIdleReflection({ idleMs: 10 * MINUTE, clock, scheduler, onEvent: (e) => events.push(e) });
    const idle = engram.idleReflection;
    const reflections = async (scope: string) => (await engram.list({ scopes: [scope], tag: 'reflection' })).items.length;
    const runs = async (scope: string) => (await engram.consolidationRuns({ scopes: [scope] })).items;

    // 4 notes × 0.8 = 3.2 < 5: idle, but below the threshold — nothing runs
    await engram.remember(notes(SCOPE, 4, 0.8));
    scheduler.advance(10 * MINUTE);
    await idle?.settled();
    expect(events.map((e) => e.outcome)).toEqual(['below-threshold']);
    expect(await runs(SCOPE)).toHaveLength(0);

    // writes keep coming every 5 minutes: never idle for 10, so never reflects, however much piles up
    for (let i = 0; i < 4; i++) {
      await engram.remember(notes(SCOPE, 3, 0.8, 4 + i * 3));
      scheduler.advance(5 * MINUTE);
      await idle?.settled();
    }
    expect(await runs(SCOPE)).toHaveLength(0);
    expect(idle?.accounts.find((a) => a.scope === SCOPE)?.accumulated).toBeCloseTo(12.8);

    // 10 idle minutes after the last write: it reflects, once, with the threshold as trigger
    scheduler.advance(5 * MINUTE);
    await idle?.settled();
    const reflected = events.filter((e) => e.outcome === 'reflected');
    expect(reflected).toEqual([
      expect.objectContaining({ scope: SCOPE, threshold: 5, idleMs: 10 * MINUTE, accumulated: expect.closeTo(12.8, 5) }),
    ]);
    expect(reflected[0]?.created).toBeGreaterThan(0);
    const [run] = await runs(SCOPE);
    expect(run).toMatchObject({ trigger: 'threshold' });
    expect(await reflections(SCOPE)).toBeGreaterThan(0);
    expect(idle?.accounts.find((a) => a.scope === SCOPE)).toBeUndefined();

    // nothing new: more idle time does not reflect again; another scope keeps its own account
    await engram.remember(notes(OTHER, 2, 0.9));
    scheduler.advance(60 * MINUTE);
    await idle?.settled();
    expect(events.filter((e) => e.outcome === 'reflected')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ scope: OTHER, outcome: 'below-threshold' });
    expect(await runs(OTHER)).toHaveLength(0);
  });

  it('checks the importance stored since the last reflection, not only what this process counted', async () => {
    const ctx = await tempEngram();
    cleanups.push(ctx.cleanup);
    const { engram } = ctx;
    const clock = new ManualClock(0);
    const scheduler = new ManualScheduler(clock);
    const events: IdleReflectionEvent[] = [];
    engram.startIdleReflection({ idleMs: MINUTE, threshold: 5, clock, scheduler, onEvent: (e) => events.push(e) });
    // unscored writes count 1 each in process (6 ≥ 5), but the store scored them low: no reflection
    await engram.remember(Array.from({ length: 6 }, (_, i) => ({ scope: SCOPE, content: `ok ${i}` })));
    scheduler.advance(MINUTE);
    await engram.idleReflection?.settled();
    expect(events).toEqual([expect.objectContaining({ outcome: 'below-threshold' })]);
    expect(events[0]?.accumulated).toBeLessThan(5);
  });
});

describe.skipIf(!binBuilt)('engram serve --idle-reflect-after (real process)', { timeout: 120_000 }, () => {
  let server: RunningServer | undefined;
  const dir = tempDir();
  afterEach(async () => {
    await server?.stop();
    dir.cleanup();
  });

  it('reflects a scope written over HTTP once it has been idle', async () => {
    server = await startServe([
      '--db',
      join(dir.dir, 'idle.db'),
      '--embedder',
      'hash',
      '--auth',
      'open',
      '--idle-reflect-after',
      '1500ms',
      '--idle-reflect-threshold',
      '4',
    ]);
    expect(server.output()).toContain('idle reflection: a scope reflects after 1500ms');
    const response = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notes(SCOPE, 12, 0.8)),
    });
    expect(response.status).toBe(200);
    // bounded wait for the idle period and the run
    const deadline = Date.now() + 30_000;
    while (!/idle reflection of lab\/agents\/r1: reflected/.test(server.output()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(server.output()).toMatch(
      /idle reflection of lab\/agents\/r1: reflected \([1-9]\d* reflections\) \(idle \d+ s, importance 9\.60 of 4\)/,
    );
    const runs = (await (await fetch(`${server.url}/v1/consolidation/runs?scope=${encodeURIComponent(SCOPE)}`)).json()) as {
      items: { trigger: string; phases: { name: string }[] }[];
    };
    expect(runs.items).toEqual([expect.objectContaining({ trigger: 'threshold', phases: [expect.objectContaining({ name: 'reflect' })] })]);
  });
});
