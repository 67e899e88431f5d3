/**
 * Importers cut source text to a field's length on a character boundary: a folder tag, a category or
 * a title whose cut falls inside an emoji is imported (cut before the emoji), not skipped as invalid.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cutText } from '../../src/portability/importers/cut-text.js';
import { applyImport, mcpMemoryUnit, mem0Units, vaultUnits } from '../../src/portability/importers/index.js';
import { tempEngram } from '../helpers/temp.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('cutText', () => {
  it('keeps at most max UTF-16 units, ends on a grapheme boundary, and never leaves half a surrogate pair', () => {
    const pieces = ['a', '📚', '👨‍👩‍👧', '🇵🇹', 'é'.normalize('NFD'), '张'];
    const text = Array.from({ length: 60 }, (_, i) => pieces[i % pieces.length]).join('');
    for (let max = 1; max <= text.length; max++) {
      const cut = cutText(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(LONE_SURROGATE.test(cut)).toBe(false);
      expect(text.startsWith(cut)).toBe(true);
      // the cut is whole graphemes of the text, and the next one would not have fitted
      const whole = graphemes(text);
      const kept = graphemes(cut);
      expect(kept).toEqual(whole.slice(0, kept.length));
      if (kept.length < whole.length) expect(cut.length + (whole[kept.length]?.length ?? 0)).toBeGreaterThan(max);
    }
    expect(cutText('short', 100)).toBe('short');
    // a single grapheme longer than the field is cut between code points
    const marks = `e${'\u0301'.repeat(150)}`;
    expect(cutText(marks, 100)).toBe(marks.slice(0, 100));
    expect(LONE_SURROGATE.test(cutText(`📚${'\u200d📚'.repeat(60)}`, 101))).toBe(false);
  });
});

describe('importers cut on a character boundary (real store)', () => {
  it('a vault note whose folder tag is cut inside an emoji is imported with the tag cut before it', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const base = 'Projects/2024 Client work for the Lisbon office/Quarterly planning and review notes/';
    // "folder:" + path puts the emoji's two UTF-16 units at 99 and 100: a cut at 100 splits it
    const folder = `${base}${'x'.repeat(99 - 'folder:'.length - base.length)}📚 Reading`;
    expect(`folder:${folder}`.charCodeAt(99)).toBeGreaterThanOrEqual(0xd800);
    const units = vaultUnits(
      [{ path: `${folder}/book.md`, text: 'Notes on the book.' }],
      { scope: 'me/notes', defaultTime: 0 },
      { style: 'obsidian' },
    );
    const report = await applyImport(ctx.engram, 'obsidian', units);
    expect(report.skipped).toEqual([]);
    expect(report.memories.created).toBe(1);
    const [note] = await ctx.engram.store.listMemories({ scopes: ['me/notes'], limit: 10 });
    const tag = note?.tags.find((t) => t.startsWith('folder:')) as string;
    expect(tag.length).toBeLessThanOrEqual(100);
    expect(LONE_SURROGATE.test(tag)).toBe(false);
    expect(`folder:${folder}`.startsWith(tag)).toBe(true);
  });

  it('a mem0 category and an MCP memory entity type cut inside an emoji are kept, cut before it', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const long = `${'c'.repeat(99)}📚`;
    const mem0 = [{ id: 'm1', memory: 'Reads every night', created_at: '2024-07-20T02:12:34Z', user_id: 'alice', categories: [long] }];
    const fromMem0 = await applyImport(ctx.engram, 'mem0', mem0Units(mem0, { scope: 'acme/users/alice' }));
    expect(fromMem0.skipped).toEqual([]);
    const graph = JSON.stringify({ type: 'entity', name: 'Alice', entityType: long, observations: ['Reads at night'] });
    const fromGraph = await applyImport(ctx.engram, 'mcp-memory', [mcpMemoryUnit(graph, { scope: 'acme/graph', defaultTime: 0 })]);
    expect(fromGraph.skipped).toEqual([]);
    const records = await ctx.engram.store.listMemories({ scopes: ['acme/users/alice', 'acme/graph'], limit: 10 });
    expect(records).toHaveLength(3);
    for (const tag of records.flatMap((r) => r.tags)) {
      expect(LONE_SURROGATE.test(tag)).toBe(false);
      expect(tag.length).toBeLessThanOrEqual(100);
    }
    expect(records.flatMap((r) => r.tags)).toContain('c'.repeat(99));
  });
});
