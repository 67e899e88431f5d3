/**
 * The text a stored record is embedded from, as the write paths embed it, so a record re-embedded with
 * another model sits where a fresh write with that model would put it.
 */
import type { MemoryData } from '../memory.js';
import type { StagingCandidate } from '../ports/vector-staging.js';
import { embeddingText } from '../write/remember.js';
import { isChunk, isConcept } from '../record-kinds.js';

/**
 * A chunk is embedded from its own text, a concept from its name (underscores as spaces), anything
 * else from its name, content and episode cycle (`embeddingText`).
 *
 * @example
 * ```ts
 * reembedText({ id: '01J…', layer: 'semantic', content: 'kitchen', data: { concept: true, name: 'coffee_mug' } }); // 'coffee mug'
 * ```
 */
export function reembedText(record: Omit<StagingCandidate, 'data'> & { readonly data: StagingCandidate['data'] | MemoryData }): string {
  const { data } = record;
  if (isChunk(record)) return record.content;
  if (isConcept(record) && typeof data.name === 'string') return data.name.replace(/_/g, ' ');
  try {
    return embeddingText({ layer: record.layer, content: record.content, data: data as MemoryData });
  } catch {
    // an odd data document (a damaged or foreign record) still has its content
    return record.content;
  }
}
