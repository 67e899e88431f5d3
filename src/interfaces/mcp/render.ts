/**
 * Plain-text renderings of tool results, for MCP clients that read `content` rather than
 * `structuredContent` (and for the model's eyes).
 */
import type { MemoryView } from '../../core/memory-view.js';
import type { RecallHit } from '../../core/recall/recall.js';
import type { RememberResult } from '../../core/write/remember.js';

/** One line per memory: date, layer, content, id. */
export function renderMemoryLine(memory: MemoryView): string {
  const when = (memory.occurredAt ?? memory.validFrom).slice(0, 10);
  const status = memory.status === 'active' ? '' : ` (${memory.status})`;
  return `[${when} · ${memory.layer}${status}] ${memory.content} (id ${memory.id}, scope ${memory.scope})`;
}

export function renderHits(hits: readonly RecallHit[]): string {
  if (hits.length === 0) return 'No matching memories.';
  return hits
    .map(
      (hit, i) =>
        `${i + 1}. ${renderMemoryLine(hit)} relevance ${hit.relevance.toFixed(2)} · score ${hit.score.toFixed(3)}${corrected(hit)}`,
    )
    .join('\n');
}

/** A captured turn corrected since: what holds now (the turn ranks after the hits nothing corrected). */
function corrected(hit: RecallHit): string {
  return hit.correctedBy === undefined ? '' : ` · later corrected: ${hit.correctedBy.content} (id ${hit.correctedBy.id})`;
}

export function renderRemember(result: RememberResult): string {
  if (result.claims === undefined) return renderAction(result);
  const claims = result.claims.map(
    (c) => `${c.id} ${c.action}${c.superseded !== undefined ? ` (supersedes ${c.superseded.join(', ')})` : ''}`,
  );
  return `${renderAction(result)} ${claims.length === 0 ? 'No claims in it.' : `Claims: ${claims.join('; ')}.`}`;
}

function renderAction(result: RememberResult): string {
  switch (result.action) {
    case 'created':
      return `Remembered as ${result.id}${result.chunks !== undefined ? ` (${result.chunks.length} chunks)` : ''}.`;
    case 'merged':
      return `Merged into existing memory ${result.mergedInto ?? result.id} (same claim stated again).`;
    case 'superseded':
      return `Remembered as ${result.id}; it supersedes ${(result.superseded ?? []).join(', ')} (kept as history).`;
    case 'unchanged':
      return `Already stored from the same source as ${result.id}; nothing changed.`;
  }
}

export function renderMemory(memory: MemoryView): string {
  const lines = [
    renderMemoryLine(memory),
    `valid ${memory.validFrom}${memory.validTo !== null ? ` → ${memory.validTo}` : ''} · recorded ${memory.recordedAt}`,
  ];
  if (memory.tags.length > 0) lines.push(`tags: ${memory.tags.join(', ')}`);
  return lines.join('\n');
}

/** A compact JSON rendering, for results whose shape belongs to another module. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** The concise form of a listed memory for an agent: what it says and when, not every field. */
export function renderListItem(memory: MemoryView): Record<string, unknown> {
  return {
    id: memory.id,
    scope: memory.scope,
    layer: memory.layer,
    status: memory.status,
    content: memory.content,
    tags: memory.tags,
    importance: memory.importance,
    validFrom: memory.validFrom,
    validTo: memory.validTo,
    recordedAt: memory.recordedAt,
  };
}
