/**
 * A real store with latency injected into chosen methods (the "slow port" of deadline tests): every
 * call goes to the wrapped store, and the chosen methods answer `delayMs` later. Not a mock: the data
 * and behaviour are the real store's.
 */
import type { Store } from '../../src/index.js';

export type StoreMethod =
  | 'getMemories'
  | 'listMemories'
  | 'lexicalSearch'
  | 'vectorSearch'
  | 'getEdges'
  | 'getNeighbours'
  | 'temporalSearch'
  | 'findConcepts'
  | 'getConceptRefs';

const wallSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Wraps `store` so that the listed methods resolve `delayMs` after the real answer (`sleep`: the wall clock unless a test's virtual time). */
export function slowStore(
  store: Store,
  delays: Partial<Record<StoreMethod, number>>,
  sleep: (ms: number) => Promise<void> = wallSleep,
): Store & { close(): Promise<void> } {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const delay = delays[property as StoreMethod];
      // `close` must not close the shared store twice; the owner closes it.
      if (property === 'close') return async () => undefined;
      if (delay === undefined) return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await sleep(delay);
        return result;
      };
    },
  });
}
