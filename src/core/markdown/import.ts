/**
 * Import of Markdown written by `exportMarkdown` and edited by people. An entry with a trailer is the
 * record it came from (by id): unchanged entries reproduce the record exactly, visible edits (text,
 * date, importance, tags, pinned) are applied. An entry without a trailer is a new memory, written
 * through `remember` with the layer its file implies.
 */
import { EngramError, isEngramError, messages } from '../errors.js';
import type { Edge, Layer, MemoryRecord } from '../memory.js';
import type { MemoryPatch } from '../ports/store.js';
import { parseInput, rememberInputSchema, type ParsedRememberInput } from '../schemas.js';
import type { Scope } from '../scope.js';
import { newId } from '../write/new-record.js';
import { embeddingText, rememberAll, type WriteDeps } from '../write/remember.js';
import { SCHEMA_FILE, shownInstant, type MarkdownFiles } from './export.js';
import { IDENTITY_KEY_PREFIX } from '../identity-keys.js';
import { PROFILE_SCHEMA_CATEGORY } from '../profile/profile-schema.js';
import { parseDate, parseEntries, renderDate, renderImportance, withLineBreaks, type ParsedEntry } from './format.js';
import { parseTrailer, type Trailer } from './trailer-schema.js';
import { dictionary } from '../text/dictionary.js';
import type { Redactor } from '../redact/redactor.js';
import { redactExported, redactInputs } from '../redact/redact-values.js';
import { isEpisode } from '../record-kinds.js';

export interface MarkdownImportReport {
  created: number;
  updated: number;
  unchanged: number;
  /** New memories from entries without a trailer. */
  added: number;
  refs: number;
  edges: number;
  /** Secrets replaced by `[redacted:<kind>]` in the imported text (absent when none). */
  redacted?: number;
}

interface Deps extends WriteDeps {
  /** Replaces secrets in imported text before it is stored or embedded. */
  redactor: Redactor;
}

const FILE_LAYER: Record<string, Layer> = dictionary({
  'procedural.md': 'procedural',
  'semantic.md': 'semantic',
  'concepts.md': 'semantic',
  'profile.md': 'semantic',
  'log.md': 'episodic',
  [SCHEMA_FILE]: 'procedural',
});

function invalid(entry: ParsedEntry, problem: string): EngramError {
  return new EngramError('INVALID_INPUT', messages.invalidInput(`${entry.file} line ${entry.line}: ${problem}`), {
    details: { file: entry.file, line: entry.line },
  });
}

/** The record an entry stands for: the trailer's, validated, with the visible fields applied. */
function recordOf(entry: ParsedEntry, scope: Scope): { record: MemoryRecord; edited: boolean; trailer: Trailer } {
  const t = parseTrailer(entry.trailer, entry.file, entry.trailerLine ?? entry.line);
  const base = {
    summary: null,
    importance: null,
    tags: [],
    entities: [],
    emotion: null,
    lastAccessedAt: null,
    validTo: null,
    occurredAt: null,
    invalidatedAt: null,
    sourceKey: null,
    data: {},
  };
  const { refs: _refs, edges: _edges, lineBreaks, beliefs: _beliefs, ...fields } = t;
  const content = lineBreaks !== undefined ? withLineBreaks(entry.content, lineBreaks) : entry.content;
  const record = { ...base, ...fields, scope, content } as unknown as MemoryRecord;
  let edited = false;
  if (entry.importance !== undefined && entry.importance !== renderImportance(record.importance)) {
    const value = entry.importance === 'none' ? null : Number(entry.importance);
    if (value !== null && !(value >= 0 && value <= 1))
      throw invalid(entry, `importance "${entry.importance}" must be a number from 0 to 1`);
    record.importance = value;
    edited = true;
  }
  const tags = entry.tags ?? [];
  if (JSON.stringify(tags) !== JSON.stringify(record.tags)) {
    record.tags = [...new Set(tags)];
    edited = true;
  }
  if ((entry.pinned ?? false) !== record.pinned) {
    record.pinned = entry.pinned ?? false;
    edited = true;
  }
  if (entry.date !== renderDate(shownInstant(record)) && entry.date !== null) {
    const at = parseDate(entry.date);
    if (!Number.isFinite(at)) throw invalid(entry, `"${entry.date}" is not a date: use YYYY-MM-DD`);
    if (isEpisode(record)) record.occurredAt = at;
    if (!isEpisode(record) || record.validFrom > at) record.validFrom = at;
    edited = true;
  }
  return { record, edited, trailer: t };
}

const PATCHED: readonly (keyof MemoryPatch)[] = [
  'content',
  'summary',
  'tags',
  'entities',
  'importance',
  'salience',
  'surprise',
  'emotion',
  'pinned',
  'mentionCount',
  'confidence',
  'status',
  'provenance',
  'validFrom',
  'validTo',
  'occurredAt',
  'invalidatedAt',
  'data',
  'updatedAt',
];

/** Imports the files into `scope`; all records in one transaction. */
export async function importMarkdown(deps: Deps, files: MarkdownFiles, scope: Scope): Promise<MarkdownImportReport> {
  const report: MarkdownImportReport = { created: 0, updated: 0, unchanged: 0, added: 0, refs: 0, edges: 0 };
  const now = deps.clock.now();
  const entries = Object.entries(files).flatMap(([file, text]) => parseEntries(file, text));
  const fresh = entries.filter((e) => e.trailer === null);
  const known = entries.filter((e) => e.trailer !== null).map((entry) => ({ entry, ...recordOf(entry, scope) }));
  // every entry is checked before anything is written, so a bad one leaves the store as it was
  const inputs = fresh.map((entry) => {
    const at = entry.date !== null ? parseDate(entry.date) : undefined;
    if (at !== undefined && !Number.isFinite(at)) throw invalid(entry, `"${entry.date}" is not a date: use YYYY-MM-DD`);
    const layer = FILE_LAYER[entry.file] ?? 'semantic';
    const importance = entry.importance !== undefined && entry.importance !== 'none' ? Number(entry.importance) : undefined;
    return parseInput(
      rememberInputSchema,
      {
        scope,
        layer,
        content: entry.content,
        ...(at !== undefined ? (layer === 'episodic' ? { occurredAt: at } : { validFrom: at }) : {}),
        ...(importance !== undefined ? { importance } : {}),
        ...(entry.tags !== undefined && entry.tags.length > 0 ? { tags: entry.tags } : {}),
        ...(entry.pinned === true ? { pinned: true } : {}),
        // a new entry of schema.md is a field list of the profile schema
        ...(entry.file === SCHEMA_FILE ? { category: PROFILE_SCHEMA_CATEGORY } : {}),
      },
      `${entry.file} line ${entry.line}`,
    );
  });

  const redacted = redactImported(known, inputs, deps.redactor);
  if (redacted > 0) report.redacted = redacted;
  const existing = new Map(
    (
      await deps.store.getMemories(
        known.map((k) => k.record.id),
        [scope],
      )
    ).map((r) => [r.id, r]),
  );
  const toEmbed = known.filter((k) => existing.get(k.record.id)?.content !== k.record.content);
  const vectors = toEmbed.length > 0 ? await deps.embedder.embed(toEmbed.map((k) => embeddingText(k.record))) : [];
  const vectorOf = new Map(toEmbed.map((k, i) => [k.record.id, vectors[i] as Float32Array]));

  await deps.store.transaction(async (tx) => {
    const idMap = new Map<string, string>();
    for (const { record, trailer, edited } of known) {
      if (edited) record.updatedAt = now;
      const before = existing.get(record.id);
      if (before === undefined) {
        let id = record.id;
        try {
          await tx.insertMemories([{ record, embedding: vectorOf.get(record.id) as Float32Array }]);
        } catch (error) {
          // the id lives in another scope of this store: import a copy under a new id
          if (!isEngramError(error) || error.code !== 'CONFLICT') throw error;
          const copy = { ...record, id: newId(now), sourceKey: null };
          await tx.insertMemories([{ record: copy, embedding: vectorOf.get(record.id) as Float32Array }]);
          idMap.set(record.id, copy.id);
          id = copy.id;
        }
        // a new record brings what the store believed of it before; a record already here keeps its own
        if (trailer.beliefs !== undefined) await tx.restoreBeliefs(trailer.beliefs.map((belief) => ({ ...belief, memoryId: id, scope })));
        report.created++;
        continue;
      }
      if (JSON.stringify(before) === JSON.stringify({ ...before, ...record })) {
        report.unchanged++;
        continue;
      }
      const patch: Record<string, unknown> = {};
      for (const key of PATCHED) patch[key] = record[key as keyof MemoryRecord];
      await tx.updateMemory(record.id, scope, patch as unknown as MemoryPatch);
      const vector = vectorOf.get(record.id);
      if (vector !== undefined) await tx.updateEmbedding(record.id, scope, vector);
      report.updated++;
    }
    const mapId = (id: string): string => idMap.get(id) ?? id;
    const present = new Set(
      (
        await tx.getMemories(
          known.flatMap(({ trailer }) => refIdsOf(trailer).map(mapId)),
          [scope],
        )
      ).map((r) => r.id),
    );
    const newEdges: Edge[] = [];
    for (const { record, trailer } of known) {
      const refs: Record<string, string[] | undefined> = trailer.refs ?? {};
      for (const [layer, ids = []] of Object.entries(refs)) {
        const refIds = ids.map(mapId).filter((id) => present.has(id));
        if (refIds.length > 0)
          report.refs += (await tx.addConceptRefs({ scope, conceptId: mapId(record.id), layer: layer as Layer, refIds })).added.length;
      }
      const edges = trailer.edges ?? [];
      if (edges.length === 0) continue;
      const stored = new Map((await tx.getEdges({ scopes: [scope], ids: [mapId(record.id)] })).map((e) => [e.id, e]));
      for (const edge of edges) {
        const full: Edge = { ...edge, scope, fromId: mapId(record.id), toId: mapId(edge.toId) };
        if (!present.has(full.toId) && !known.some((k) => mapId(k.record.id) === full.toId)) continue;
        const current = stored.get(edge.id);
        if (current === undefined) newEdges.push(idMap.size > 0 ? { ...full, id: newId(now) } : full);
        else if (current.weight !== full.weight || JSON.stringify(current.metadata) !== JSON.stringify(full.metadata)) {
          await tx.updateEdge(edge.id, scope, { weight: full.weight, metadata: full.metadata });
          report.edges++;
        }
      }
    }
    // in id order, which is the order they were first written
    newEdges.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (newEdges.length > 0) await tx.insertEdges(newEdges);
    report.edges += newEdges.length;
    // the sleep cycle's identity keys, where the store has none yet (a record copied under a new id
    // keeps none: its old id is what they name)
    for (const { record, trailer } of known) {
      if (idMap.has(record.id)) continue;
      for (const [key, id] of Object.entries(trailer.keys ?? {})) {
        if ((await tx.getState(scope, IDENTITY_KEY_PREFIX + key)) === null)
          await tx.setState(scope, IDENTITY_KEY_PREFIX + key, { id }, now);
      }
    }
  });

  if (inputs.length > 0) {
    report.added = (await rememberAll(deps, inputs)).filter((r) => r.action !== 'unchanged').length;
  }
  return report;
}

/**
 * Replaces secrets in the entries in place (records from trailers with their source keys, edges'
 * metadata and identity keys, and new inputs); returns how many.
 */
function redactImported(
  known: readonly { record: MemoryRecord; trailer: Trailer }[],
  inputs: ParsedRememberInput[],
  redactor: Redactor,
): number {
  let count = 0;
  for (const { record, trailer } of known) {
    const edges = trailer.edges ?? [];
    const result = redactExported(record, { metadata: edges.map((e) => e.metadata), keys: trailer.keys }, redactor);
    Object.assign(record, result.patch);
    result.extras.metadata.forEach((metadata, i) => Object.assign(edges[i] as object, { metadata }));
    if (result.extras.keys !== undefined) trailer.keys = result.extras.keys;
    count += result.count;
  }
  const cleaned = redactInputs(inputs, redactor);
  inputs.splice(0, inputs.length, ...cleaned.inputs);
  return count + cleaned.counts.reduce((a, b) => a + b, 0);
}

function refIdsOf(trailer: Trailer): string[] {
  const refs: Record<string, string[] | undefined> = trailer.refs ?? {};
  return [...Object.values(refs).flatMap((ids) => ids ?? []), ...(trailer.edges ?? []).map((e) => e.toId)];
}
