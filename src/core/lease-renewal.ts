/**
 * Keeping a job lease: renewals run one after another (a beat never overlaps the previous one), a
 * renewal that finds the lease taken marks it lost, and after `stop()` no renewal in flight can take
 * the lease back. The consolidation cycle and reembed both hold their lease this way.
 */
import type { LeaseHeartbeat } from './ports/lease-heartbeat.js';
import type { Store } from './ports/store.js';

export interface LeaseRenewal {
  /** The lease was found taken by another owner on a renewal. */
  readonly lost: boolean;
  /** Whether a heartbeat renews on its own (else callers renew after each batch). */
  readonly beating: boolean;
  /** Renews once, after any renewal in flight; a failed renewal is retried on the next call. */
  renew(): Promise<void>;
  /** Stops the heartbeat and waits for a renewal in flight; release the lock after this. */
  stop(): Promise<void>;
}

/** Starts renewing `name` for `owner` every third of `ttlMs` when a heartbeat is given. */
export function renewLease(
  store: Pick<Store, 'acquireJobLock'>,
  name: string,
  owner: string,
  ttlMs: number,
  heartbeat?: LeaseHeartbeat,
): LeaseRenewal {
  let lost = false;
  let ended = false;
  let renewing: Promise<void> = Promise.resolve();
  const renew = (): Promise<void> => {
    renewing = renewing.then(async () => {
      if (lost || ended) return;
      try {
        if (!(await store.acquireJobLock(name, owner, ttlMs))) lost = true;
      } catch {
        // retried on the next beat, or after the next batch
      }
    });
    return renewing;
  };
  const stopHeartbeat = heartbeat?.(renew, Math.max(1, Math.floor(ttlMs / 3)));
  return {
    get lost() {
      return lost;
    },
    beating: stopHeartbeat !== undefined,
    renew,
    async stop() {
      stopHeartbeat?.();
      ended = true;
      await renewing;
    },
  };
}
