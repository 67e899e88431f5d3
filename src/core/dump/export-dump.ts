/**
 * Writing a dump: the store's full ordered reads, page by page, turned into canonical lines. Memory
 * holds one page and the ids of the records written (about 26 bytes each, `ExportedIds`). Records by
 * (scope, id) with their belief intervals, then edges, concept refs (insertion order), relation type registrations, state
 * documents and audit entries, then the end line with the counts.
 */
import { EngramError } from '../errors.js';
import type { MemoryRecord } from '../memory.js';
import { recordProblem } from '../readable-records.js';
import type { StoreReader } from '../ports/store.js';
import { assertReadScopes, tenantOf, type Scope } from '../scope.js';
import { upgradeSourceKey } from '../write/new-record.js';
import {
  auditLine,
  compareCodePoints,
  conceptRefLine,
  DUMP_FORMAT,
  DUMP_VERSION,
  dumpLine,
  edgeLine,
  headerLine,
  recordLine,
  type DumpKind,
} from './dump-format.js';
import { ExportedIds } from './exported-ids.js';

/** What `exportDump` needs: the store's reads and the identity of the model its vectors come from. */
export interface DumpSource {
  store: StoreReader;
  embedder: { name: string; dimension: number };
}

export interface ExportDumpOptions {
  /** The scopes to dump (at least one), or `'all'`: every scope that holds records (the store's owner). */
  scopes: readonly Scope[] | 'all';
  /** Include each record's vector (base64 float32). Default false: the importer re-embeds. */
  embeddings?: boolean;
  /** Rows read per store call (default 500). */
  pageSize?: number;
}

/**
 * The dump of `scopes` as lines, each ending in `\n`. Reads page by page, holding one page and the
 * ids of the records written; take it from a quiet store (writes made meanwhile may or may not be in
 * it). Only the edges and concept refs whose records it wrote are written, so a dump imports whole.
 *
 * @example
 * ```ts
 * for await (const line of exportDump({ store, embedder }, { scopes: ['acme/a'] })) process.stdout.write(line);
 * ```
 */
export async function* exportDump(source: DumpSource, options: ExportDumpOptions): AsyncGenerator<string> {
  const scopes = [...(options.scopes === 'all' ? await source.store.listScopes('all') : assertReadScopes(options.scopes))].sort(
    compareCodePoints,
  );
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? 500));
  const withVectors = options.embeddings === true;
  const { store } = source;
  const counts: Record<string, number> = { record: 0, edge: 0, conceptRef: 0, relationType: 0, state: 0, audit: 0 };
  const emit = (kind: Exclude<DumpKind, 'end'>, line: string): string => {
    counts[kind]!++;
    return `${line}\n`;
  };
  yield `${headerLine({ format: DUMP_FORMAT, version: DUMP_VERSION, embedder: { name: source.embedder.name, dimension: source.embedder.dimension }, embeddings: withVectors, scopes })}\n`;

  // what the records part wrote, per scope: an edge or concept ref to a record written after the
  // page that would hold it was read is left out (it would not import)
  const exported = new Map<string, ExportedIds>(scopes.map((scope) => [scope, new ExportedIds()]));
  const wasExported = (scope: string, id: string): boolean => exported.get(scope)?.has(id) === true;
  for (const scope of scopes) {
    const ids = exported.get(scope)!;
    for (let afterId: string | undefined; ;) {
      const records = await store.listMemories({ scopes: [scope], limit: pageSize, ...(afterId !== undefined ? { afterId } : {}) });
      if (records.length === 0) break;
      const pageIds = records.map((r) => r.id);
      const vectors = withVectors ? await store.getEmbeddings(scope, pageIds) : undefined;
      const beliefs = await store.getBeliefs(pageIds, [scope]);
      for (const record of records) {
        const line = recordLine(dumpable(record), {
          ...(vectors !== undefined ? { vector: vectorOf(vectors, record) } : {}),
          ...(beliefs.has(record.id) ? { beliefs: beliefs.get(record.id)! } : {}),
        });
        yield emit('record', line);
        ids.add(record.id);
      }
      afterId = records[records.length - 1]!.id;
    }
  }
  for (const scope of scopes) {
    for (let afterId: string | undefined; ;) {
      const edges = await store.listEdges({ scope, limit: pageSize, ...(afterId !== undefined ? { afterId } : {}) });
      if (edges.length === 0) break;
      for (const edge of edges) if (wasExported(scope, edge.fromId) && wasExported(scope, edge.toId)) yield emit('edge', edgeLine(edge));
      afterId = edges[edges.length - 1]!.id;
    }
  }
  // one global insertion order across the scopes, which reads of several scopes follow
  for (let after: string | null | undefined; after !== null && scopes.length > 0;) {
    const page = await store.listConceptRefs({ scopes, limit: pageSize, ...(after !== undefined ? { after } : {}) });
    for (const ref of page.refs)
      if (wasExported(ref.scope, ref.conceptId) && wasExported(ref.scope, ref.refId)) yield emit('conceptRef', conceptRefLine(ref));
    after = page.next;
  }
  const tenants = [...new Set(scopes.map(tenantOf))].sort(compareCodePoints);
  const registered = (tenants.length === 0 ? [] : await store.getRelationTypes(tenants)).filter((t) => !t.builtIn && t.tenant !== null);
  registered.sort((a, b) => compareCodePoints(a.tenant!, b.tenant!) || compareCodePoints(a.name, b.name));
  for (const { builtIn: _builtIn, ...type } of registered) yield emit('relationType', dumpLine('relationType', type));
  for (const scope of scopes) {
    for (let after: string | undefined; ;) {
      const entries = await store.listState(scope, '', pageSize, after !== undefined ? { after } : {});
      if (entries.length === 0) break;
      for (const entry of entries) yield emit('state', dumpLine('state', { ...entry }));
      after = entries[entries.length - 1]!.key;
    }
  }
  for (const scope of scopes) {
    for (let afterId: string | undefined; ;) {
      const entries = await store.listAudit({ scope, limit: pageSize, ...(afterId !== undefined ? { afterId } : {}) });
      if (entries.length === 0) break;
      for (const entry of entries) yield emit('audit', auditLine(entry));
      afterId = entries[entries.length - 1]!.id;
    }
  }
  yield `${dumpLine('end', { counts })}\n`;
}

/** The record as a dump holds it: a legacy NUL-joined source key in its current form. */
function dumpable(record: MemoryRecord): MemoryRecord {
  const problem = recordProblem(record);
  if (problem !== null) {
    throw new EngramError(
      'STORAGE_CORRUPT',
      `Memory ${record.id} in ${record.scope} is damaged (${problem}), so it cannot be dumped losslessly: fix it (engram update) or remove it (engram purge), then dump again.`,
      { details: { id: record.id, scope: record.scope } },
    );
  }
  return record.sourceKey === null ? record : { ...record, sourceKey: upgradeSourceKey(record.sourceKey) };
}

function vectorOf(vectors: ReadonlyMap<string, Float32Array>, record: MemoryRecord): Float32Array {
  const vector = vectors.get(record.id);
  if (vector === undefined) {
    throw new EngramError(
      'STORAGE_CORRUPT',
      `Memory ${record.id} in ${record.scope} has no stored vector: dump without --embeddings (the importer re-embeds it).`,
      {
        details: { id: record.id, scope: record.scope },
      },
    );
  }
  return vector;
}
