/**
 * The official MCP memory server's graph (`@modelcontextprotocol/server-memory`, `memory.jsonl`): one
 * JSON object a line, `{"type":"entity","name","entityType","observations":[…]}` or
 * `{"type":"relation","from","to","relationType"}`. Entities become named semantic memories
 * (`name` = entity name, `category` = entity type), each observation a semantic fact with a MENTIONS
 * edge to its entity, each relation an edge of the relation type (registered for the tenant as
 * proposed when new; the source's spelling kept in the edge's `metadata.relationType`). The graph
 * records no time, so `--default-time` says since when its facts hold.
 */
import { withoutBom } from '../without-bom.js';
import { emptyUnit, type ImportContext, type ImportUnit } from './import-plan.js';
import { resolveScope } from './scope-template.js';
import { stableHash } from './stable-hash.js';
import { cutText } from './cut-text.js';

export const MCP_MEMORY_SYSTEM = 'mcp-memory';

/** The edge type linking an observation to its entity. */
export const OBSERVATION_EDGE = 'MENTIONS';

/** An entity of the graph. */
export interface GraphEntity {
  name: string;
  entityType: string;
  observations: string[];
}

/** A relation of the graph. */
export interface GraphRelation {
  from: string;
  to: string;
  relationType: string;
}

/** A graph read from JSONL, with the lines that were not entities or relations. */
export interface ParsedGraph {
  entities: GraphEntity[];
  relations: GraphRelation[];
  problems: { line: number; reason: string }[];
}

/** Parses server-memory JSONL; a repeated entity's observations join the first one's. */
export function parseMcpMemory(text: string): ParsedGraph {
  const graph: ParsedGraph = { entities: [], relations: [], problems: [] };
  const byName = new Map<string, GraphEntity>();
  const lines = withoutBom(text).split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let item: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('not an object');
      item = value as Record<string, unknown>;
    } catch {
      graph.problems.push({ line, reason: 'not a JSON object' });
      return;
    }
    if (item.type === 'entity') {
      if (
        typeof item.name !== 'string' ||
        item.name.trim() === '' ||
        typeof item.entityType !== 'string' ||
        !Array.isArray(item.observations)
      ) {
        graph.problems.push({ line, reason: 'entity without a name, an entityType or an observations array' });
        return;
      }
      const observations = item.observations.filter((o): o is string => typeof o === 'string' && o.trim() !== '');
      if (observations.length < item.observations.length) graph.problems.push({ line, reason: 'observation that is not text' });
      const known = byName.get(item.name);
      if (known !== undefined) {
        for (const o of observations) if (!known.observations.includes(o)) known.observations.push(o);
        return;
      }
      const entity = { name: item.name, entityType: item.entityType, observations: [...new Set(observations)] };
      byName.set(entity.name, entity);
      graph.entities.push(entity);
    } else if (item.type === 'relation') {
      if (typeof item.from !== 'string' || typeof item.to !== 'string' || typeof item.relationType !== 'string') {
        graph.problems.push({ line, reason: 'relation without from, to or relationType' });
        return;
      }
      graph.relations.push({ from: item.from, to: item.to, relationType: item.relationType });
    } else {
      graph.problems.push({
        line,
        reason: `line of type ${JSON.stringify(item.type ?? null).slice(0, 40)} (only entity and relation lines are part of the graph)`,
      });
    }
  });
  return graph;
}

/** The import unit of a graph (one unit: relations name entities anywhere in the file). */
export function mcpMemoryUnit(text: string, context: ImportContext): ImportUnit {
  const graph = parseMcpMemory(text);
  const unit = emptyUnit('graph');
  for (const problem of graph.problems) unit.skipped.push({ ref: `line ${problem.line}`, reason: problem.reason });
  const resolved = resolveScope(context, {});
  const at = context.defaultTime;
  const names = new Set(graph.entities.map((e) => e.name));
  for (const entity of graph.entities) {
    const ref = `entity ${entity.name}`;
    if ('problem' in resolved || at === undefined) {
      const reason = 'problem' in resolved ? resolved.problem : 'the graph records no time: pass --default-time ISO (or now)';
      unit.skipped.push({ ref, reason }, ...entity.observations.map((o) => ({ ref: `${ref}, observation "${cutText(o, 60)}"`, reason })));
      continue;
    }
    const base = { scope: resolved.scope, layer: 'semantic' as const, validFrom: at, provenance: { kind: 'document' as const } };
    unit.memories.push({
      key: `entity:${entity.name}`,
      ref,
      input: {
        ...base,
        content: entity.name,
        name: entity.name,
        category: entity.entityType,
        tags: [MCP_MEMORY_SYSTEM, cutText(entity.entityType, 100)].filter((t) => t.trim() !== ''),
        source: { system: MCP_MEMORY_SYSTEM, messageId: `entity:${entity.name}` },
      },
    });
    entity.observations.forEach((observation, index) => {
      const key = `observation:${entity.name}:${index}`;
      const observationRef = `${ref}, observation "${cutText(observation, 60)}"`;
      unit.memories.push({
        key,
        ref: observationRef,
        input: {
          ...base,
          content: observation,
          entities: [cutText(entity.name, 200)],
          tags: [MCP_MEMORY_SYSTEM],
          source: { system: MCP_MEMORY_SYSTEM, messageId: `observation:${stableHash(`${entity.name}\u0000${observation}`)}` },
        },
      });
      unit.relations.push({ from: key, to: `entity:${entity.name}`, type: OBSERVATION_EDGE, ref: observationRef });
    });
  }
  for (const relation of graph.relations) {
    const ref = `relation ${relation.from} ${relation.relationType} ${relation.to}`;
    const missing = [relation.from, relation.to].filter((n) => !names.has(n));
    if (missing.length > 0) {
      unit.skipped.push({ ref, reason: 'relation names an entity the graph does not have' });
      continue;
    }
    unit.relations.push({
      from: `entity:${relation.from}`,
      to: `entity:${relation.to}`,
      type: relation.relationType,
      // whole: cut here, a secret could lose the characters its detector needs (applyImport redacts, then bounds it)
      register: { description: `"${relation.relationType}" from an MCP memory graph` },
      metadata: { relationType: relation.relationType },
      ref,
    });
  }
  return unit;
}
