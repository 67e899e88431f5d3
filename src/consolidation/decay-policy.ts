/**
 * Decay and expiry (§11.4, §11.10; seed 001): activation-based, by last access, not
 * creation. Importance below 0.5 decays after 7 idle days, 0.5 to 0.7 after 14, above 0.7 after 30;
 * pinned never; high emotional intensity decays slower; a person's `restore` exempts the record for
 * good; a decayed record expires after a further grace period.
 */
import { chainImportance } from '../core/chains/chain.js';
import { lastActiveAt, type MemoryRecord } from '../core/memory.js';
import type { StoreReader } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';

const DAY = 86_400_000;

export interface DecayConfig {
  /** Idle days before decay, by importance tier [0, 0.5), [0.5, 0.7), [0.7, 1]. */
  idleDays: { low: number; medium: number; high: number };
  /** Days a decayed record stays restorable before it expires. */
  graceDays: number;
  /** Emotional intensity (0..10) above which decay slows, up to ×`maxEmotionFactor` at 10. */
  emotionThreshold: number;
  maxEmotionFactor: number;
  /** Flashbulb memories (marked by the affect phase: intensity at or above its threshold) wait this many times longer. */
  flashbulbFactor: number;
}

export const DEFAULT_DECAY: Readonly<DecayConfig> = Object.freeze({
  idleDays: Object.freeze({ low: 7, medium: 14, high: 30 }),
  graceDays: 30,
  emotionThreshold: 5,
  maxEmotionFactor: 2,
  flashbulbFactor: 3,
});

export type DecayVerdict =
  | { action: 'keep'; reason: 'pinned' | 'exempt' | 'fresh' | 'not-applicable' }
  | { action: 'decay' | 'expire'; idleMs: number; thresholdMs: number };

/**
 * The idle threshold of a record in ms: its importance tier, stretched by emotional intensity — the
 * intensity the affect phase last appraised when it has, else the stored one — and by
 * `flashbulbFactor` for a memory the affect phase marked as a flashbulb.
 */
export function idleThresholdMs(
  record: Pick<MemoryRecord, 'importance' | 'emotion'> & { data?: Pick<MemoryRecord['data'], 'affect'> },
  config: DecayConfig = DEFAULT_DECAY,
): number {
  const importance = record.importance ?? 1; // unscored ranks as 1.0 until scored (§11.4)
  const days = importance < 0.5 ? config.idleDays.low : importance < 0.7 ? config.idleDays.medium : config.idleDays.high;
  const affect = record.data?.affect;
  const intensity = typeof affect?.intensity === 'number' ? affect.intensity : (record.emotion?.intensity ?? 0);
  const over = Math.max(0, intensity - config.emotionThreshold) / Math.max(1e-9, 10 - config.emotionThreshold);
  const factor = (1 + Math.min(1, over) * (config.maxEmotionFactor - 1)) * (affect?.flashbulb === true ? (config.flashbulbFactor ?? 1) : 1);
  return days * DAY * factor;
}

/** What decay does to one record at `now`. Only active and decayed records are considered. */
export function decayVerdict(record: MemoryRecord, now: number, config: DecayConfig = DEFAULT_DECAY): DecayVerdict {
  if (record.status !== 'active' && record.status !== 'decayed') return { action: 'keep', reason: 'not-applicable' };
  if (record.pinned) return { action: 'keep', reason: 'pinned' };
  if (record.data.exempt?.decay === true && record.status === 'active') return { action: 'keep', reason: 'exempt' };
  if (record.status === 'decayed') {
    const decayedAt = typeof record.data.decayedAt === 'number' ? record.data.decayedAt : record.updatedAt;
    const idleMs = now - Math.max(decayedAt, lastActiveAt(record));
    const thresholdMs = config.graceDays * DAY;
    return idleMs >= thresholdMs ? { action: 'expire', idleMs, thresholdMs } : { action: 'keep', reason: 'fresh' };
  }
  const idleMs = now - lastActiveAt(record);
  const thresholdMs = idleThresholdMs(record, config);
  return idleMs >= thresholdMs ? { action: 'decay', idleMs, thresholdMs } : { action: 'keep', reason: 'fresh' };
}

/**
 * The records of `records` that decay or expire at `now`, with their verdicts. A record due to decay
 * that belongs to a decision chain is judged again on the tier of the chain's most important member.
 */
export async function decayVerdicts(
  reader: StoreReader,
  scope: Scope,
  records: readonly MemoryRecord[],
  now: number,
  config: DecayConfig = DEFAULT_DECAY,
): Promise<{ r: MemoryRecord; verdict: Exclude<DecayVerdict, { action: 'keep' }> }[]> {
  const due = records.map((r) => ({ r, verdict: decayVerdict(r, now, config) })).filter((x) => x.verdict.action !== 'keep');
  const decaying = due.filter((x) => x.verdict.action === 'decay').map((x) => x.r);
  const lent = decaying.length > 0 ? await chainImportance(reader, scope, decaying, now) : new Map<string, number>();
  return due
    .map(({ r, verdict }) => {
      const importance = lent.get(r.id);
      if (verdict.action !== 'decay' || importance === undefined || importance <= (r.importance ?? 1)) return { r, verdict };
      return { r, verdict: decayVerdict({ ...r, importance }, now, config) };
    })
    .filter((x): x is { r: MemoryRecord; verdict: Exclude<DecayVerdict, { action: 'keep' }> } => x.verdict.action !== 'keep');
}
