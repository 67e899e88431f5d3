/**
 * Export of one scope as Markdown (seed 003's layout): procedural.md (rules), semantic.md (definitions,
 * statistics: the schema of what is known), concepts.md (the concept records extraction keeps, apart
 * so their bare names do not crowd the definitions), profile.md (facts about the user or subject),
 * log.md (episodes), and schema.md (the profile schema: what to learn about the user) when the scope has one. Every record of the scope, whatever its status, with its concept refs and
 * outgoing edges in its trailer, so an import reproduces it exactly.
 */
import type { BeliefInterval, Edge, MemoryRecord } from '../memory.js';
import { isVisible } from '../memory.js';
import type { Store } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { lineBreaksOf, renderDate, renderEntry, renderImportance } from './format.js';
import { isProfileSchema } from '../profile/profile-schema.js';
import { isEpisode, recordKind } from '../record-kinds.js';
import { IDENTITY_KEY_PREFIX } from '../identity-keys.js';

/** File name → Markdown text. */
export type MarkdownFiles = Record<string, string>;

export const MARKDOWN_FILES = ['procedural.md', 'semantic.md', 'concepts.md', 'profile.md', 'log.md'] as const;
/** The profile schema's file (seed 003's shared/semantic.md): written only when the scope has a schema. */
export const SCHEMA_FILE = 'schema.md' as const;
type MarkdownFile = (typeof MARKDOWN_FILES)[number] | typeof SCHEMA_FILE;

const TITLES: Record<MarkdownFile, string> = {
  'schema.md': 'Profile schema: what to learn about the user (edit the field lines: "- name: description (example: …)")',
  'procedural.md': 'Procedural memory: how to behave (always in context)',
  'semantic.md': 'Semantic memory: definitions and statistics',
  'concepts.md': 'Concepts: what the memories are about',
  'profile.md': 'Profile: facts',
  'log.md': 'Log: what happened',
};

/** Which file a record belongs in. */
export function fileOf(record: MemoryRecord): MarkdownFile {
  if (isProfileSchema(record)) return SCHEMA_FILE;
  switch (recordKind(record)) {
    case 'rule':
      return 'procedural.md';
    case 'episode':
      return 'log.md';
    case 'statistic':
      return 'semantic.md';
    case 'concept':
      return 'concepts.md';
    case 'fact': {
      const d = record.data;
      return d.definition !== undefined || (d.category !== undefined && d.claim === undefined) ? 'semantic.md' : 'profile.md';
    }
  }
}

/** The instant shown as an entry's date: when it happened (episodes), else since when it is valid. */
export function shownInstant(record: MemoryRecord): number {
  return isEpisode(record) ? (record.occurredAt ?? record.validFrom) : record.validFrom;
}

/**
 * The trailer: the record minus its visible text, defaults left out; plus refs, outgoing edges and the
 * sleep cycle's identity keys that name it or one of its edges (so a cycle after an import finds what
 * it made before instead of making it again). The text's line breaks, when they are not all `\n`,
 * which the visible lines cannot show. The validities the store believed before (`beliefs`), as a dump
 * carries them.
 */
export function trailerOf(
  record: MemoryRecord,
  refs: Record<string, string[]>,
  edges: readonly Edge[],
  keys: Record<string, string> = {},
  beliefs: readonly BeliefInterval[] = [],
): Record<string, unknown> {
  const { scope: _scope, content: _content, ...rest } = record;
  const trailer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || (Array.isArray(value) && value.length === 0)) continue;
    if (key === 'data' && Object.keys(value as object).length === 0) continue;
    trailer[key] = value;
  }
  if (Object.keys(refs).length > 0) trailer.refs = refs;
  if (edges.length > 0) {
    trailer.edges = edges.map(({ scope: _s, fromId: _f, ...edge }) => edge);
  }
  if (Object.keys(keys).length > 0) trailer.keys = keys;
  // what the store believed of the record's validity before it last changed: `knownAt` reads answer from it
  if (beliefs.length > 0) trailer.beliefs = beliefs;
  const lineBreaks = lineBreaksOf(record.content);
  if (lineBreaks !== undefined) trailer.lineBreaks = lineBreaks;
  return trailer;
}

/**
 * The scope's consolidation identity keys (`consolidate/key/…` state: which record or edge a phase made
 * for a key), by the record whose trailer carries them: the record itself, or the record an edge leaves.
 */
async function identityKeys(
  store: Store,
  scope: Scope,
  edgeFrom: ReadonlyMap<string, string>,
): Promise<Map<string, Record<string, string>>> {
  const byRecord = new Map<string, Record<string, string>>();
  for (let after: string | undefined; ;) {
    const entries = await store.listState(scope, IDENTITY_KEY_PREFIX, 1000, after !== undefined ? { after } : {});
    for (const entry of entries) {
      const id = (entry.value as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') continue;
      const holder = edgeFrom.get(id) ?? id;
      const keys = byRecord.get(holder) ?? {};
      keys[entry.key.slice(IDENTITY_KEY_PREFIX.length)] = id;
      byRecord.set(holder, keys);
    }
    if (entries.length < 1000) return byRecord;
    after = entries[entries.length - 1]!.key;
  }
}

async function allRecords(store: Store, scope: Scope): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await store.listMemories({ scopes: [scope], limit: 1000, ...(afterId !== undefined ? { afterId } : {}) });
    out.push(...page);
    if (page.length < 1000) return out;
    afterId = page[page.length - 1]?.id;
  }
}

/** Renders every record of `scope` into the five files (each present, possibly with no entries). */
export async function exportMarkdown(deps: { store: Store; now: number }, scope: Scope): Promise<MarkdownFiles> {
  const records = await allRecords(deps.store, scope);
  const ids = records.map((r) => r.id);
  const refs = new Map<string, Record<string, string[]>>();
  const edges = new Map<string, Edge[]>();
  const beliefs = new Map<string, BeliefInterval[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const [id, held] of await deps.store.getBeliefs(chunk, [scope])) beliefs.set(id, held);
    for (const ref of await deps.store.getConceptRefs({ scopes: [scope], conceptIds: chunk })) {
      const byLayer = refs.get(ref.conceptId) ?? {};
      (byLayer[ref.layer] ??= []).push(ref.refId);
      refs.set(ref.conceptId, byLayer);
    }
    const seen = new Set<string>();
    for (const edge of await deps.store.getEdges({ scopes: [scope], ids: chunk })) {
      if (seen.has(edge.id) || !chunk.includes(edge.fromId)) continue;
      seen.add(edge.id);
      edges.set(edge.fromId, [...(edges.get(edge.fromId) ?? []), edge]);
    }
  }
  const edgeFrom = new Map([...edges.values()].flat().map((edge) => [edge.id, edge.fromId]));
  const keys = await identityKeys(deps.store, scope, edgeFrom);
  const byFile = new Map<string, MemoryRecord[]>([...MARKDOWN_FILES, SCHEMA_FILE].map((f) => [f, []]));
  for (const record of records) byFile.get(fileOf(record))?.push(record);
  const files: MarkdownFiles = {};
  const names: MarkdownFile[] = [...MARKDOWN_FILES, ...((byFile.get(SCHEMA_FILE)?.length ?? 0) > 0 ? [SCHEMA_FILE] : [])];
  for (const file of names) {
    const list = (byFile.get(file) ?? []).sort(
      (a, b) =>
        (file === 'procedural.md' ? Number(b.data.priority ?? 0) - Number(a.data.priority ?? 0) : 0) ||
        shownInstant(a) - shownInstant(b) ||
        (a.id < b.id ? -1 : 1),
    );
    // current as reads of now say: valid now (a fact of 2019 only, or one that holds from 2030, is not),
    // and a claim whose correction takes effect later still is
    const current = list.filter((r) => isVisible(r, {}, deps.now));
    const past = list.filter((r) => !isVisible(r, {}, deps.now));
    const render = (r: MemoryRecord): string =>
      renderEntry(
        {
          date: renderDate(shownInstant(r)),
          content: r.content,
          importance: renderImportance(r.importance),
          tags: r.tags,
          pinned: r.pinned,
        },
        trailerOf(r, refs.get(r.id) ?? {}, edges.get(r.id) ?? [], keys.get(r.id) ?? {}, beliefs.get(r.id) ?? []),
      );
    const parts = [
      `# ${TITLES[file]} — ${scope}`,
      '',
      '<!-- Edit the text, dates, importance, tags and pinned freely; keep each entry\'s "engram" comment line. New entries: "- [YYYY-MM-DD] text". -->',
      '',
    ];
    if (current.length > 0) parts.push(...current.map(render), '');
    if (past.length > 0) parts.push('## Not current (superseded, not valid now, decayed or forgotten)', '', ...past.map(render), '');
    files[file] = parts.join('\n');
  }
  return files;
}
