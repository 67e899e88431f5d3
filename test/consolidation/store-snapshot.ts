/** A store snapshot that two runs can be compared by: records and edges by content, not by id. */
import type { Engram } from '../../src/index.js';
import type { MemoryRecord } from '../../src/core/memory.js';

export async function snapshot(engram: Engram, scope: string): Promise<{ records: string[]; edges: string[] }> {
  const all: MemoryRecord[] = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await engram.store.listMemories({ scopes: [scope], limit: 500, ...(afterId !== undefined ? { afterId } : {}) });
    all.push(...page);
    if (page.length < 500) break;
    afterId = page[page.length - 1]?.id;
  }
  const label = new Map(all.map((r) => [r.id, `${r.layer}:${r.content}`]));
  const records = all.map((r) => `${r.layer}|${r.status}|${r.content}|${r.confidence}|${String(r.data.name ?? '')}`).sort();
  const edges: string[] = [];
  for (let i = 0; i < all.length; i += 200) {
    const found = await engram.store.getEdges({ scopes: [scope], ids: all.slice(i, i + 200).map((r) => r.id) });
    for (const e of found)
      edges.push(`${e.type}|${label.get(e.fromId)}|${label.get(e.toId)}|${e.weight}|${e.invalidatedAt === null}|${e.id}`);
  }
  const unique = [...new Set(edges)].map((e) => e.slice(0, e.lastIndexOf('|'))).sort();
  return { records, edges: unique };
}
