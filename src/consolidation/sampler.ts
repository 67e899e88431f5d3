/**
 * The mixed sampler (seed 002): recent records, plus a random sample of old ones, plus the
 * least salient ones, because cross-session corrections live in the old and quiet slices a
 * recency-only pass never visits. Seeded, so a run is reproducible.
 */
import { seededRandom } from './statistics.js';

export interface SampleSizes {
  /** Most recent records. */
  recent: number;
  /** Uniform random sample of the rest. */
  randomOld: number;
  /** Lowest-salience records. */
  lowSalience: number;
}

export const DEFAULT_SAMPLE_SIZES: Readonly<SampleSizes> = Object.freeze({ recent: 100, randomOld: 100, lowSalience: 50 });

/** What the sampler needs of a record. */
export interface Sampleable {
  id: string;
  salience: number;
}

/** Reservoir sample of k items from an iterable (one pass, uniform), seeded. */
export function reservoirSample<T>(items: Iterable<T>, k: number, random: () => number): T[] {
  const reservoir: T[] = [];
  let seen = 0;
  if (k <= 0) return reservoir;
  for (const item of items) {
    seen += 1;
    if (reservoir.length < k) reservoir.push(item);
    else {
      const slot = Math.floor(random() * seen);
      if (slot < k) reservoir[slot] = item;
    }
  }
  return reservoir;
}

/** Which slice of the sample a record came from (for reports). */
export type SampleSlice = 'recent' | 'randomOld' | 'lowSalience';

/**
 * Picks the mixed sample from records in id (= time) order: the `recent` newest, a seeded random
 * `randomOld` from the rest, and the `lowSalience` least salient not already picked. No duplicates.
 */
export function mixedSample<T extends Sampleable>(
  records: readonly T[],
  sizes: SampleSizes,
  seed: number,
): { items: T[]; slices: Record<SampleSlice, number> } {
  const random = seededRandom(seed);
  const recentStart = Math.max(0, records.length - sizes.recent);
  const recent = records.slice(recentStart);
  const older = records.slice(0, recentStart);
  const randomOld = reservoirSample(older, sizes.randomOld, random);
  const picked = new Set([...recent, ...randomOld].map((r) => r.id));
  const lowSalience = records
    .filter((r) => !picked.has(r.id))
    .sort((a, b) => a.salience - b.salience || (a.id < b.id ? -1 : 1))
    .slice(0, sizes.lowSalience);
  const items = [...recent, ...randomOld, ...lowSalience].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { items, slices: { recent: recent.length, randomOld: randomOld.length, lowSalience: lowSalience.length } };
}
