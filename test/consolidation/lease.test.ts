/** A cycle's lease stays held while a phase works longer than the lease between checkpoints. */
import { afterEach, describe, expect, it } from 'vitest';
import { Engram, type Store } from '../../src/index.js';
import { timerHeartbeat } from '../../src/lease-heartbeat.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/robot';
const LEASE_MS = 300;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The real store, but the first `listMemories` after `arm()` waits for `open()` (a phase stuck mid-read). */
function gatedStore(store: Store): { store: Store; arm(): Promise<void>; open(): void } {
  let armed = false;
  let entered: () => void = () => undefined;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'close') return async () => undefined;
      if (property !== 'listMemories') return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        if (armed) {
          armed = false;
          entered();
          await gate;
        }
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return {
    store: wrapped,
    arm: () => {
      armed = true;
      return new Promise<void>((resolve) => (entered = resolve));
    },
    open: () => release(),
  };
}

describe('consolidation lease', () => {
  it('is renewed while a phase runs longer than the lease: a second cycle started meanwhile gets LOCKED', async () => {
    const t = await tempEngram({ consolidation: { lockTtlMs: LEASE_MS } });
    cleanups.push(t.cleanup);
    await t.engram.remember(
      Array.from({ length: 6 }, (_, i) => ({ scope: SCOPE, layer: 'semantic' as const, content: `The robot arm ${i} needs oil weekly` })),
    );
    const gated = gatedStore(t.engram.store);
    const first = new Engram({
      store: gated.store,
      embedder: t.engram.embedder,
      consolidation: { lockTtlMs: LEASE_MS },
      heartbeat: timerHeartbeat,
    });

    const entered = gated.arm();
    const running = first.consolidate({ scope: SCOPE });
    await entered;
    // the phase is stuck in a read for several leases; only renewals during it keep the scope locked
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 4));
    await expect(t.engram.consolidate({ scope: SCOPE })).rejects.toMatchObject({ code: 'LOCKED' });
    gated.open();
    const report = await running;
    expect(report.phases.length).toBeGreaterThan(0);
    // released at the end, and no late renewal takes it back
    await expect(t.engram.consolidate({ scope: SCOPE })).resolves.toMatchObject({ scope: SCOPE });
  });
});
