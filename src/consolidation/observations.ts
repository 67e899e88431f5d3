/**
 * Observations: the numbers consolidation reads from an episode (seed 000's observe→decide→act→
 * evaluate cycle). Pure mapping from records, so promotion sources can be tested without a store.
 */
import type { MemoryRecord } from '../core/memory.js';

/** What one episode says, in the form promotion sources consume. */
export interface Observation {
  /** The episode's id (evidence for DERIVED_FROM edges). */
  id: string;
  /** When it happened (occurredAt, else validFrom). */
  at: number;
  /** When the store learned of it (for "new since the last run"); `at` when absent. */
  recordedAt?: number;
  /** The cue: tool and objects, e.g. `grasp + coffee_mug`; null when the episode names neither. */
  cue: string | null;
  /** The tool alone (trends are per tool), null when none. */
  tool: string | null;
  success: boolean | null;
  /** Numeric metrics present on the episode (salience, novelty, confidence, reward). */
  metrics: Record<string, number>;
}

/** Normalises a cue part: lowercase, spaces to underscores. */
function part(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '_');
}

/** The cue of an episode: `tool + object + …` (objects sorted), or null. */
export function cueOf(record: Pick<MemoryRecord, 'data'>): string | null {
  const tool = record.data.action?.tool;
  const objects = [...new Set((record.data.perception?.objects ?? []).map(part).filter((o) => o.length > 0))].sort();
  const parts = [...(tool !== undefined && tool.trim() !== '' ? [part(tool)] : []), ...objects];
  return parts.length === 0 ? null : parts.join(' + ');
}

/** Reads the observation of an episode record. */
export function observationOf(record: MemoryRecord): Observation {
  const metrics: Record<string, number> = {};
  const put = (name: string, value: unknown) => {
    if (typeof value === 'number' && Number.isFinite(value)) metrics[name] = value;
  };
  put('salience', record.data.perception?.salience);
  put('novelty', record.data.perception?.novelty);
  put('confidence', record.data.decision?.confidence);
  put('reward', record.data.outcome?.reward);
  const tool = record.data.action?.tool;
  const success = record.data.outcome?.success;
  return {
    id: record.id,
    at: record.occurredAt ?? record.validFrom,
    recordedAt: record.recordedAt,
    cue: cueOf(record),
    tool: tool !== undefined && tool.trim() !== '' ? part(tool) : null,
    success: typeof success === 'boolean' ? success : null,
    metrics,
  };
}

/** Is this observation new since `since` (by when it was recorded)? */
export function isNewSince(o: Observation, since: number): boolean {
  return (o.recordedAt ?? o.at) >= since;
}
