/** Markdown import checks every trailer value like any input, and writes nothing when one is wrong. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'acme/users/alice';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function exported(): Promise<{ engram: Engram; files: Record<string, string> }> {
  const t = await tempEngram();
  cleanups.push(t.cleanup);
  await t.engram.remember({ scope: S, content: 'Viewed Prestige Meridian', occurredAt: '2026-01-15' });
  await t.engram.remember({ scope: S, content: 'Shortlisted Sobha Dream Acres', occurredAt: '2026-02-01' });
  return { engram: t.engram, files: await t.engram.exportMarkdown({ scope: S }) };
}

async function fresh(): Promise<Engram> {
  const t = await tempEngram();
  cleanups.push(t.cleanup);
  return t.engram;
}

/** The log with the second entry's trailer changed by `edit`. */
function withTrailer(log: string, edit: (trailer: Record<string, unknown>) => Record<string, unknown>): string {
  const lines = log.split('\n');
  const at = lines.findLastIndex((l) => l.startsWith('  <!-- engram '));
  const json = JSON.parse((/^ {2}<!-- engram (\{.*\}) -->$/.exec(lines[at]!) as RegExpExecArray)[1]!) as Record<string, unknown>;
  lines[at] = `  <!-- engram ${JSON.stringify(edit(json))} -->`;
  return lines.join('\n');
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findLastIndex((l) => l.includes(needle)) + 1;
}

describe('Markdown import validates the engram comment', () => {
  it.each([
    ['confidence', 42, /confidence.*at most 1/],
    ['mentionCount', -5, /mentionCount.*at least 0/],
    ['mentionCount', 1.5, /mentionCount.*whole number/],
    ['status', 'gone', /status.*one of/],
    ['validFrom', 'yesterday', /validFrom.*number/],
    ['salience', Number.NaN, /salience/],
  ])('rejects %s = %s naming the file, line and field, and writes nothing', async (field, value, pattern) => {
    const { files } = await exported();
    const log = withTrailer(files['log.md']!, (t) => ({ ...t, [field]: value }));
    const target = await fresh();
    const error = await target.importMarkdown({ ...files, 'log.md': log }, { scope: S }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { file: 'log.md', line: lineOf(log, '<!-- engram '), field } });
    expect(String((error as Error).message)).toMatch(new RegExp(`log\\.md line ${lineOf(log, '<!-- engram ')}`));
    expect(String((error as Error).message)).toMatch(pattern);
    expect(await target.store.listMemories({ scopes: [S], limit: 100 })).toEqual([]);
  });

  it('rejects an unknown field, a comment that is not JSON, and bad refs or edges, as INVALID_INPUT', async () => {
    const { files } = await exported();
    const target = await fresh();
    const cases = [
      withTrailer(files['log.md']!, (t) => ({ ...t, content: 'smuggled' })),
      files['log.md']!.replace(/<!-- engram \{"id"/, '<!-- engram {"id":,'),
      withTrailer(files['log.md']!, (t) => ({ ...t, refs: { episodic: 'not-a-list' } })),
      withTrailer(files['log.md']!, (t) => ({
        ...t,
        edges: [{ id: 'e1', type: 'RELATED_TO', toId: 'x', weight: 'heavy', validFrom: 0, recordedAt: 0 }],
      })),
    ];
    for (const log of cases) {
      await expect(target.importMarkdown({ 'log.md': log }, { scope: S })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        details: { file: 'log.md' },
      });
    }
    expect(await target.store.listMemories({ scopes: [S], limit: 100 })).toEqual([]);
  });

  it('a bad hand-written entry after good exported ones leaves the store as it was', async () => {
    const { files } = await exported();
    const target = await fresh();
    const log = `${files['log.md']}\n- [2026-13-45] impossible date\n`;
    await expect(target.importMarkdown({ ...files, 'log.md': log }, { scope: S })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await target.store.listMemories({ scopes: [S], limit: 100 })).toEqual([]);
  });

  it('an untouched export still imports', async () => {
    const { files } = await exported();
    const target = await fresh();
    expect(await target.importMarkdown(files, { scope: S })).toMatchObject({ created: 2 });
  });
});
