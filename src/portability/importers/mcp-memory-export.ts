/**
 * Export of one scope as an MCP memory server graph (`memory.jsonl`), so the knowledge can move to
 * any client of `@modelcontextprotocol/server-memory`. Named semantic memories (imported entities,
 * concepts, named definitions) become entities (`entityType` = category, else `concept`); the facts
 * and rules linked to an entity (a MENTIONS edge from the fact, or a concept ref) become its
 * observations; facts and rules linked to none go to the entity of their claim's subject, else to one
 * entity named after the scope; edges between two entities become relations, spelled as they were
 * imported (`metadata.relationType`) or in lower case. Only current memories are exported; episodes
 * and statistics have no place in the graph and are counted as left out.
 */
import { isChunk, isChunkParent, isConcept, isEpisode, isFact, isStatistic } from '../../core/record-kinds.js';
import type { Edge, MemoryRecord } from '../../core/memory.js';
import type { StoreReader } from '../../core/ports/store.js';
import type { Scope } from '../../core/scope.js';
import type { GraphEntity, GraphRelation } from './mcp-memory.js';
import { OBSERVATION_EDGE } from './mcp-memory.js';

/** The store reads the export needs. */
export type McpMemoryExportReader = Pick<StoreReader, 'listMemories' | 'getEdges' | 'getConceptRefs'>;

/** What the export wrote and left out. */
export interface McpMemoryExportReport {
  scope: string;
  entities: number;
  observations: number;
  relations: number;
  /** Current memories not in the graph, by why. */
  leftOut: Record<string, number>;
}

const PAGE = 1000;

async function currentRecords(reader: McpMemoryExportReader, scope: Scope): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  for (let afterId: string | undefined; ;) {
    const page = await reader.listMemories({
      scopes: [scope],
      statuses: ['active'],
      limit: PAGE,
      ...(afterId !== undefined ? { afterId } : {}),
    });
    out.push(...page.filter((r) => r.invalidatedAt === null && r.validTo === null));
    if (page.length < PAGE) return out;
    afterId = page[page.length - 1]?.id;
  }
}

async function edgesOf(reader: McpMemoryExportReader, scope: Scope, ids: readonly string[]): Promise<Edge[]> {
  const seen = new Map<string, Edge>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const edge of await reader.getEdges({ scopes: [scope], ids: ids.slice(i, i + 500) })) {
      if (edge.invalidatedAt === null && edge.validTo === null) seen.set(edge.id, edge);
    }
  }
  return [...seen.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The graph of `scope`: entity lines, then relation lines, each a JSON object as server-memory writes them. */
export async function exportMcpMemory(
  reader: McpMemoryExportReader,
  scope: Scope,
): Promise<{ lines: string[]; report: McpMemoryExportReport }> {
  const records = await currentRecords(reader, scope);
  const report: McpMemoryExportReport = { scope, entities: 0, observations: 0, relations: 0, leftOut: {} };
  const leave = (why: string): void => void (report.leftOut[why] = (report.leftOut[why] ?? 0) + 1);
  const entities = new Map<string, GraphEntity>();
  const entityOf = new Map<string, GraphEntity>();
  const facts: MemoryRecord[] = [];
  for (const record of records) {
    if (isChunk(record)) continue; // a chunk: its parent holds the whole text
    if (isEpisode(record)) leave('episodes (events have no place in the graph; export jsonl keeps them)');
    else if (isStatistic(record)) leave('statistics (numbers have no place in the graph; export jsonl keeps them)');
    else if (
      (isFact(record) || isConcept(record)) &&
      typeof record.data.name === 'string' &&
      record.data.name.trim() !== '' &&
      !isChunkParent(record)
    ) {
      const name = record.data.name;
      let entity = entities.get(name.toLowerCase());
      if (entity === undefined) {
        const type =
          typeof record.data.category === 'string' && record.data.category !== ''
            ? record.data.category
            : isConcept(record)
              ? 'concept'
              : 'thing';
        entity = { name, entityType: type, observations: [] };
        entities.set(name.toLowerCase(), entity);
      }
      entityOf.set(record.id, entity);
      if (typeof record.data.definition === 'string' && record.data.definition.trim() !== '')
        entity.observations.push(record.data.definition);
    } else facts.push(record);
  }
  const edges = await edgesOf(
    reader,
    scope,
    records.map((r) => r.id),
  );
  const linked = new Map<string, GraphEntity[]>();
  const link = (factId: string, entity: GraphEntity): void => {
    const list = linked.get(factId) ?? [];
    if (!list.includes(entity)) list.push(entity);
    linked.set(factId, list);
  };
  for (const edge of edges) {
    const entity = entityOf.get(edge.toId);
    if (edge.type === OBSERVATION_EDGE && entity !== undefined && !entityOf.has(edge.fromId)) link(edge.fromId, entity);
  }
  const conceptIds = [...entityOf.keys()];
  for (let i = 0; i < conceptIds.length; i += 500) {
    for (const ref of await reader.getConceptRefs({
      scopes: [scope],
      conceptIds: conceptIds.slice(i, i + 500),
      layers: ['semantic', 'procedural'],
    })) {
      const entity = entityOf.get(ref.conceptId);
      if (entity !== undefined && !entityOf.has(ref.refId)) link(ref.refId, entity);
    }
  }
  for (const fact of facts) {
    let owners = linked.get(fact.id);
    if (owners === undefined) {
      const subject = (fact.data.claim as { subject?: unknown } | undefined)?.subject;
      const name = typeof subject === 'string' && subject !== '' ? subject : scope;
      let entity = entities.get(name.toLowerCase());
      if (entity === undefined) {
        entity = { name, entityType: name === scope ? 'engram-scope' : 'subject', observations: [] };
        entities.set(name.toLowerCase(), entity);
      }
      owners = [entity];
    }
    for (const owner of owners) if (!owner.observations.includes(fact.content)) owner.observations.push(fact.content);
  }
  const relations: GraphRelation[] = [];
  const seen = new Set<string>();
  for (const edge of edges) {
    const from = entityOf.get(edge.fromId);
    const to = entityOf.get(edge.toId);
    if (from === undefined || to === undefined || from === to) continue;
    const relationType = typeof edge.metadata.relationType === 'string' ? edge.metadata.relationType : edge.type.toLowerCase();
    const key = JSON.stringify([from.name, to.name, relationType]);
    if (seen.has(key)) continue;
    seen.add(key);
    relations.push({ from: from.name, to: to.name, relationType });
  }
  const lines = [
    ...[...entities.values()].map((e) =>
      JSON.stringify({ type: 'entity', name: e.name, entityType: e.entityType, observations: e.observations }),
    ),
    ...relations.map((r) => JSON.stringify({ type: 'relation', from: r.from, to: r.to, relationType: r.relationType })),
  ];
  report.entities = entities.size;
  report.observations = [...entities.values()].reduce((n, e) => n + e.observations.length, 0);
  report.relations = relations.length;
  return { lines, report };
}
