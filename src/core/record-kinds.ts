/**
 * The kinds of memory record, told apart in one place: every "is this an episode / a concept / a chunk
 * parent / a reflection?" question is asked through these guards, never by reading `layer` or `data`
 * inline. The kind guards narrow a `MemoryRecord` to its member of the `KindedRecord` union.
 */
import type { ConceptRecord, EpisodeRecord, FactRecord, MemoryRecord, RecordKind, RuleRecord, StatisticRecord } from './memory.js';

/** What the concept guard reads: a layer and a data document (a record, or a staging candidate). */
type ConceptMarkable = Pick<MemoryRecord, 'layer'> & { readonly data: { readonly concept?: unknown } };

/** An episode: a record of the episodic layer. */
export function isEpisode(record: MemoryRecord): record is EpisodeRecord;
export function isEpisode(record: Pick<MemoryRecord, 'layer'>): boolean;
export function isEpisode(record: Pick<MemoryRecord, 'layer'>): boolean {
  return record.layer === 'episodic';
}

/**
 * A concept: a semantic record made by concept extraction (or marked so by a caller). A damaged record
 * without a data document is not one.
 *
 * @example
 * isConcept({ layer: 'semantic', data: { concept: true, name: 'coffee_mug' } }); // true
 */
export function isConcept(record: MemoryRecord): record is ConceptRecord;
export function isConcept(record: ConceptMarkable): boolean;
export function isConcept(record: ConceptMarkable): boolean {
  return record.layer === 'semantic' && (record.data as ConceptMarkable['data'] | undefined)?.concept === true;
}

/** A fact: a semantic record that is not a concept (a claim, a reflection, promoted knowledge). */
export function isFact(record: MemoryRecord): record is FactRecord;
export function isFact(record: ConceptMarkable): boolean;
export function isFact(record: ConceptMarkable): boolean {
  return record.layer === 'semantic' && !isConcept(record);
}

/** A rule: a record of the procedural layer. */
export function isRule(record: MemoryRecord): record is RuleRecord;
export function isRule(record: Pick<MemoryRecord, 'layer'>): boolean;
export function isRule(record: Pick<MemoryRecord, 'layer'>): boolean {
  return record.layer === 'procedural';
}

/** A statistic: a record of the statistical layer. */
export function isStatistic(record: MemoryRecord): record is StatisticRecord;
export function isStatistic(record: Pick<MemoryRecord, 'layer'>): boolean;
export function isStatistic(record: Pick<MemoryRecord, 'layer'>): boolean {
  return record.layer === 'statistical';
}

/**
 * The kind of a record, as the `KindedRecord` union tells them apart.
 *
 * @example
 * recordKind({ layer: 'semantic', data: { concept: true } } as MemoryRecord); // 'concept'
 */
export function recordKind(record: MemoryRecord): RecordKind {
  switch (record.layer) {
    case 'episodic':
      return 'episode';
    case 'semantic':
      return isConcept(record) ? 'concept' : 'fact';
    case 'procedural':
      return 'rule';
    case 'statistical':
      return 'statistic';
  }
}

/** A chunked document's parent: it holds the whole text and is never a search hit itself. */
export function isChunkParent(record: Pick<MemoryRecord, 'data'>): boolean {
  return record.data.isChunkParent === true;
}

/** A chunk of a longer document: it names its parent. */
export function isChunk(record: { readonly data: { readonly parentId?: unknown } }): boolean {
  return typeof record.data.parentId === 'string';
}

/** A reflection: knowledge written by the reflect phase (templated or by an LLM). */
export function isReflection(record: Pick<MemoryRecord, 'provenance'>): boolean {
  return record.provenance.kind === 'reflection';
}

/** Knowledge promoted from repeated episodes or statistics. */
export function isPromoted(record: Pick<MemoryRecord, 'data'>): boolean {
  return record.data.category === 'promoted';
}

/** An episode summary that stands for older episodes. */
export function isCompressed(record: Pick<MemoryRecord, 'data'>): boolean {
  return record.data.compressed === true;
}

/** Derived bookkeeping that recall, context and reflection do not treat as a memory of its own. */
export function isStructural(record: ConceptMarkable & Pick<MemoryRecord, 'data'>): boolean {
  return isConcept(record) || isChunkParent(record);
}

/** Categories of knowledge the sleep cycle's own phases write and keep up to date (insight, affect, phase locking). */
const CYCLE_KNOWLEDGE = new Set(['insight', 'caution', 'mood', 'cycle']);

/**
 * Knowledge a consolidation phase maintains from its statistics (insights, cautions, mood summaries,
 * cycle nodes): updated by that phase, never merged, superseded or reflected on as a claim.
 */
export function isCycleKnowledge(record: Pick<MemoryRecord, 'data'>): boolean {
  return CYCLE_KNOWLEDGE.has(String(record.data.category ?? ''));
}
