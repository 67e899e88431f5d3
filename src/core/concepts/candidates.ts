/**
 * Which concepts an episode names (seed 000, ConceptExtractor): goal and tool tokens, perceived objects
 * and people, and named entities. Pure; the worker turns candidates into concept records and refs.
 */
import type { MemoryRecord } from '../memory.js';
import { normalizeTokens } from '../text/index.js';

/** A concept an episode refers to: its normalised name and what kind of thing it is. */
export interface ConceptCandidate {
  name: string;
  category: 'goal' | 'tool' | 'object' | 'person' | 'entity' | 'intent';
}

/** Tokens of tool names that say nothing about the tool (`tool_navigate` → navigate). */
const GENERIC_TOOL_TOKENS = new Set(['tool', 'tools', 'action', 'call', 'fn', 'func', 'function', 'cmd', 'command']);

/**
 * The normalised concept name of a whole label: its tokens joined by `_` (`Coffee Mug` → `coffee_mug`).
 *
 * @example
 * ```ts
 * conceptName('graspObject'); // 'grasp_object'
 * ```
 */
export function conceptName(label: string): string {
  const tokens = normalizeTokens(label);
  return tokens.length > 0 ? tokens.join('_') : label.trim().toLowerCase();
}

/**
 * The concepts one record names, deduplicated by name (the first category wins), in a stable order:
 * goal tokens, tool tokens, objects, people, entities.
 *
 * @example
 * ```ts
 * // { context: { goal: 'navigate_to_kitchen' }, action: { tool: 'graspObject' } }
 * // → navigate (goal), kitchen (goal), grasp (tool), object (tool)
 * ```
 */
export function conceptCandidates(record: MemoryRecord): ConceptCandidate[] {
  const out = new Map<string, ConceptCandidate>();
  const add = (name: string, category: ConceptCandidate['category']): void => {
    if (name.length === 0 || name.length > 200 || out.has(name)) return;
    out.set(name, { name, category });
  };
  const d = record.data;
  for (const token of normalizeTokens(d.context?.goal ?? '')) add(token, 'goal');
  for (const token of normalizeTokens(d.action?.tool ?? '')) if (!GENERIC_TOOL_TOKENS.has(token)) add(token, 'tool');
  for (const token of normalizeTokens(d.decision?.intent ?? '')) add(token, 'intent');
  for (const object of d.perception?.objects ?? []) add(conceptName(object), 'object');
  for (const person of d.perception?.people ?? []) add(conceptName(person), 'person');
  for (const entity of record.entities) add(conceptName(entity), 'entity');
  return [...out.values()];
}
