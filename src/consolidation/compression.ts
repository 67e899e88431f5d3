/**
 * Compression of old, low-importance episodes (seed 000): a summary plus the
 * key fields of the cycle, in a new record that points back to the original (the id chain); the
 * original is retired and concept refs move to the compressed record.
 */
import type { EpisodeData, MemoryRecord } from '../core/memory.js';
import { isChunk, isChunkParent, isCompressed, isEpisode } from '../core/record-kinds.js';
import { cutText } from '../core/text/index.js';

const DAY = 86_400_000;

export interface CompressionConfig {
  /**
   * Episodes may be compressed once they are this old both in the world (occurredAt) and in the store
   * (recordedAt): old history that was just imported is not compressed at the next cycle.
   */
  minAgeDays: number;
  /** Only episodes below this importance. */
  maxImportance: number;
  /** Characters of the original text kept in the summary. */
  summaryChars: number;
}

export const DEFAULT_COMPRESSION: Readonly<CompressionConfig> = Object.freeze({ minAgeDays: 30, maxImportance: 0.5, summaryChars: 160 });

/** Is this episode due for compression at `now`? */
export function shouldCompress(record: MemoryRecord, now: number, config: CompressionConfig = DEFAULT_COMPRESSION): boolean {
  if (!isEpisode(record) || record.status !== 'active' || record.pinned) return false;
  if (isCompressed(record) || isChunkParent(record) || isChunk(record)) return false;
  const importance = record.importance ?? 1;
  if (importance >= config.maxImportance) return false;
  const minAge = config.minAgeDays * DAY;
  return now - (record.occurredAt ?? record.recordedAt) >= minAge && now - record.recordedAt >= minAge;
}

/** The compressed form: summary text and the key fields of the episode. */
export function compressEpisode(
  record: MemoryRecord,
  config: CompressionConfig = DEFAULT_COMPRESSION,
): { content: string; summary: string; data: EpisodeData } {
  const d = record.data;
  const parts: string[] = [];
  if (d.context?.goal) parts.push(d.context.goal);
  const act = [d.action?.tool, ...(d.perception?.objects ?? [])].filter((x): x is string => typeof x === 'string' && x.length > 0);
  if (act.length > 0) parts.push(act.join(' '));
  if (typeof d.outcome?.success === 'boolean') parts.push(d.outcome.success ? 'succeeded' : 'failed');
  const text = record.content.length > config.summaryChars ? `${cutText(record.content, config.summaryChars).trimEnd()}…` : record.content;
  const summary = parts.length > 0 ? `${parts.join(' — ')}. ${text}` : text;
  const data: EpisodeData = {
    compressed: true,
    compressedFrom: [record.id, ...(Array.isArray(d.compressedFrom) ? (d.compressedFrom as string[]) : [])],
  };
  if (d.perception !== undefined) data.perception = d.perception;
  if (d.context !== undefined) data.context = d.context;
  if (d.decision !== undefined)
    data.decision = {
      ...(d.decision.intent !== undefined ? { intent: d.decision.intent } : {}),
      ...(d.decision.confidence !== undefined ? { confidence: d.decision.confidence } : {}),
    };
  if (d.action?.tool !== undefined) data.action = { tool: d.action.tool };
  if (d.outcome !== undefined)
    data.outcome = {
      ...(d.outcome.success !== undefined ? { success: d.outcome.success } : {}),
      ...(d.outcome.reward !== undefined ? { reward: d.outcome.reward } : {}),
    };
  return { content: summary, summary, data };
}
