/**
 * The kinds of derived memory record, told apart in one place: every "is this a concept / a chunk
 * parent / a reflection?" question is asked through these guards, never by reading `data` inline.
 */
import type { MemoryRecord } from './memory.js';

/** A concept: a semantic record made by concept extraction (or marked so by a caller). */
export function isConcept(record: Pick<MemoryRecord, 'layer'> & { readonly data: { readonly concept?: unknown } }): boolean {
  return record.layer === 'semantic' && record.data.concept === true;
}

/** A chunked document's parent: it holds the whole text and is never a search hit itself. */
export function isChunkParent(record: MemoryRecord): boolean {
  return record.data.isChunkParent === true;
}

/** A reflection: knowledge written by the reflect phase (templated or by an LLM). */
export function isReflection(record: MemoryRecord): boolean {
  return record.provenance.kind === 'reflection';
}

/** Knowledge promoted from repeated episodes or statistics. */
export function isPromoted(record: MemoryRecord): boolean {
  return record.data.category === 'promoted';
}

/** An episode summary that stands for older episodes. */
export function isCompressed(record: MemoryRecord): boolean {
  return record.data.compressed === true;
}

/** Derived bookkeeping that recall, context and reflection do not treat as a memory of its own. */
export function isStructural(record: MemoryRecord): boolean {
  return isConcept(record) || isChunkParent(record);
}

/** Categories of knowledge the sleep cycle's own phases write and keep up to date (insight, affect, phase locking). */
const CYCLE_KNOWLEDGE = new Set(['insight', 'caution', 'mood', 'cycle']);

/**
 * Knowledge a consolidation phase maintains from its statistics (insights, cautions, mood summaries,
 * cycle nodes): updated by that phase, never merged, superseded or reflected on as a claim.
 */
export function isCycleKnowledge(record: MemoryRecord): boolean {
  return CYCLE_KNOWLEDGE.has(String(record.data.category ?? ''));
}
