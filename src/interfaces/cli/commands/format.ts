/**
 * Human-readable renderings for the terminal.
 */
import pc from 'picocolors';
import { iso, type MemoryView } from '../../../core/memory-view.js';
import type { RecallHit } from '../../../core/recall/recall.js';

/** One memory, several lines. */
export function formatMemory(memory: MemoryView): string {
  const lines = [
    `${pc.bold(memory.id)} ${pc.dim(`[${memory.scope} · ${memory.layer} · ${memory.status}]`)}`,
    memory.content,
    pc.dim(
      `valid ${memory.validFrom}${memory.validTo ? ` → ${memory.validTo}` : ''} · recorded ${memory.recordedAt}${memory.invalidatedAt ? ` · invalidated ${memory.invalidatedAt}` : ''}`,
    ),
  ];
  if (memory.tags.length > 0) lines.push(pc.dim(`tags: ${memory.tags.join(', ')}`));
  const history = wordingHistory(memory.history);
  if (history.length > 0) {
    lines.push(pc.dim('history (other wordings, oldest first; `engram history ID` lists the versions):'));
    for (const entry of history) lines.push(`  ${pc.dim(entry.at)}  ${entry.content}`);
  }
  return lines.join('\n');
}

/** The readable entries of a memory's `history` (merged and replaced wordings), `at` as ISO 8601. */
function wordingHistory(history: unknown): { at: string; content: string }[] {
  if (!Array.isArray(history)) return [];
  return history.flatMap((entry: unknown) => {
    const { content, at } = (entry ?? {}) as { content?: unknown; at?: unknown };
    if (typeof content !== 'string') return [];
    return [{ at: typeof at === 'number' ? (iso(at) ?? '(unknown time)') : '(unknown time)', content }];
  });
}

/** A ranked hit list. */
export function formatHits(result: { hits: RecallHit[] }): string {
  if (result.hits.length === 0) return pc.dim('(no matching memories)');
  return result.hits
    .map((hit, index) => {
      const channels = Object.entries(hit.why.channels)
        .map(([name, c]) => `${name} #${c.rank}`)
        .join(', ');
      const corrected = hit.correctedBy === undefined ? '' : `\n    ${pc.yellow(`later corrected: ${hit.correctedBy.content}`)}`;
      const chain = (hit.chain ?? []).map((m) => `\n    ${m.id === hit.id ? '▸' : '·'} ${m.role}: ${m.content}`).join('');
      return `${pc.bold(String(index + 1).padStart(2))}. ${hit.content}\n    ${pc.dim(`${hit.id} · ${hit.scope} · ${hit.layer} · relevance ${hit.relevance.toFixed(2)} · score ${hit.score.toFixed(4)} · ${channels}`)}${corrected}${chain}`;
    })
    .join('\n');
}
