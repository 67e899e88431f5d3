/**
 * Markdown round trip of text and tags a plain entry cannot show as they are: line breaks other than
 * `\n` (a lone CR of terminal progress output, CRLF, U+2028, U+2029) and tags holding a comma, `·`, a
 * line break or surrounding spaces. Every record comes back exactly, and a second import of the same
 * files changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { parseEntries } from '../../../src/core/markdown/format.js';
import { enginesClosedAfterEach, everything as everythingIn } from '../../helpers/markdown-round-trip.js';
import { ManualClock } from '../../../src/core/ports/clock.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'acme/users/alice';
const open = enginesClosedAfterEach();
const everything = (engram: Engram, scope = S): Promise<MemoryRecord[]> => everythingIn(engram, scope);

const TEXTS = [
  'npm install output: Downloading 10%\rDownloading 100% done',
  'First paragraph\u2029Second paragraph',
  'Bob\u2028prefers window seats',
  'Pasted from Windows\r\nsecond line\r\n',
  'An ordinary episode\nwith a second line',
  // lines that read like an entry's own trailer or attribute line (notes about this very format)
  'The export writes a trailer:\n<!-- engram {"id":"01FAKE","layer":"semantic"} -->\nafter each entry',
  'A pasted trailer as the last line\n<!-- engram {"id":"01FAKE2"} -->',
  'An attribute line as the last line\n· importance 0.9 · tags: x · pinned',
];

const TAGS = [
  ['Paris, France'],
  ['a · b', 'c'],
  ['  surrounded by spaces '],
  ['vip\u2028guest', 'line\nbreak', 'carriage\rreturn'],
  ['"quoted"', 'back\\slash', 'plain'],
  ['tab\there', 'next\u0085line'],
];

/** Lines as an editor splits them: at every line break JavaScript or Unicode knows. */
const editorLines = (text: string): string[] => text.split(/\r\n|[\n\r\u0085\u2028\u2029]/);

describe('Markdown round trip of text with line breaks other than \\n', () => {
  it('reproduces every record exactly, shows each break as a line of its own, and re-imports unchanged', async () => {
    const source = await open();
    for (const content of TEXTS) await source.remember({ scope: S, content });
    const before = await everything(source);
    expect(before.map((r) => r.content).sort()).toEqual([...TEXTS].sort());
    const files = await source.exportMarkdown({ scope: S });

    // no raw break but \n in the files, so an editor sees the lines the parser sees
    for (const text of Object.values(files)) expect(editorLines(text)).toEqual(text.split('\n'));
    expect(files['log.md']).toContain('- ');
    expect(files['log.md']).toMatch(/Downloading 10%\n {2}Downloading 100% done\n/);

    const target = await open();
    expect(await target.importMarkdown(files, { scope: S })).toMatchObject({ created: TEXTS.length, updated: 0, added: 0 });
    expect(await everything(target)).toStrictEqual(before);
    expect(await source.importMarkdown(files, { scope: S })).toMatchObject({ updated: 0, added: 0, unchanged: TEXTS.length });
    expect(await everything(source)).toStrictEqual(before);
  });

  it('a folder converted to CRLF still reproduces the text exactly; an edit of the visible text is taken', async () => {
    const engram = await open();
    const { id } = await engram.remember({ scope: S, content: TEXTS[0]! });
    const files = await engram.exportMarkdown({ scope: S });
    const crlf = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, text.replace(/\n/g, '\r\n')]));
    expect(await engram.importMarkdown(crlf, { scope: S })).toMatchObject({ updated: 0, added: 0, unchanged: 1 });
    expect((await engram.get(id, { scopes: [S] }))?.content).toBe(TEXTS[0]);

    // an edit that keeps the lines keeps their breaks; one that adds a line writes plain ones
    const reworded = { ...files, 'log.md': files['log.md']!.replace('Downloading 100% done', 'Downloading 100% finished') };
    expect(await engram.importMarkdown(reworded, { scope: S })).toMatchObject({ updated: 1, added: 0 });
    expect((await engram.get(id, { scopes: [S] }))?.content).toBe('npm install output: Downloading 10%\rDownloading 100% finished');
    const longer = { ...files, 'log.md': files['log.md']!.replace('Downloading 100% done', 'Downloading 100% done\n  in 3 s') };
    expect(await engram.importMarkdown(longer, { scope: S })).toMatchObject({ updated: 1, added: 0 });
    expect((await engram.get(id, { scopes: [S] }))?.content).toBe('npm install output: Downloading 10%\nDownloading 100% done\nin 3 s');
  });

  it('reads an entry whose line holds a raw CR, U+2028 or U+2029 (as earlier exports wrote them) with its text as it is', () => {
    for (const text of ['10%\r100%', 'a\u2028b', 'a\u2029b']) {
      const trailer = `{"id":"x","tags":["t\u2028u"]}`;
      const [entry, ...others] = parseEntries(
        'log.md',
        `- [2024-05-01] ${text}\n  · importance 0.5 · tags: t\u2028u\n  <!-- engram ${trailer} -->\n`,
      );
      expect(others).toEqual([]);
      expect(entry).toMatchObject({ content: text, importance: '0.5', tags: ['t\u2028u'], trailer: { id: 'x', tags: ['t\u2028u'] } });
    }
  });
});

describe('Markdown round trip of what the store believed when', () => {
  it('a record imported into a fresh store answers knownAt reads as the original does', async () => {
    const clock = new ManualClock(Date.parse('2024-06-01T10:00:00Z'));
    const source = await tempEngram({ clock });
    const target = await tempEngram({ clock });
    try {
      const staging = await source.engram.remember({ scope: S, layer: 'semantic', content: 'The deploy target is staging.' });
      clock.advance(60_000);
      const before = clock.now();
      clock.advance(60_000);
      expect(
        (await source.engram.remember({ scope: S, layer: 'semantic', content: 'The deploy target moved to production.' })).superseded,
      ).toEqual([staging.id]);
      const leads = async (engram: Engram) =>
        (await engram.recall('what is the deploy target', { scopes: [S], asOf: '9999-12-31T00:00:00Z', knownAt: before })).hits.map(
          (h) => h.content,
        );
      expect(await leads(source.engram)).toEqual(['The deploy target is staging.']);
      const files = await source.engram.exportMarkdown({ scope: S });
      expect(Object.values(files).join('')).toContain('"beliefs":[');
      expect(await target.engram.importMarkdown(files, { scope: S })).toMatchObject({ created: 2 });
      expect(await leads(target.engram)).toEqual(['The deploy target is staging.']);
      expect(await target.engram.store.getBeliefs([staging.id], [S])).toEqual(await source.engram.store.getBeliefs([staging.id], [S]));
      // a second import changes nothing
      expect(await target.engram.importMarkdown(files, { scope: S })).toMatchObject({ created: 0, updated: 0 });
    } finally {
      await source.cleanup();
      await target.cleanup();
    }
  });
});

describe('Markdown files with lone-CR line ends', () => {
  it('reads a hand-written file saved with classic Mac OS line ends entry by entry', () => {
    const entries = parseEntries(
      'notes.md',
      '# Notes\r- [2024-05-01] Bob prefers aisle seats\r  · importance 0.5\r- Alice moved to Porto\r',
    );
    expect(entries.map((e) => [e.date, e.content, e.importance ?? null])).toEqual([
      ['2024-05-01', 'Bob prefers aisle seats', '0.5'],
      [null, 'Alice moved to Porto', null],
    ]);
  });
});

describe('Markdown round trip of tags', () => {
  it('gives back every tag exactly, and a second import of the same files changes nothing', async () => {
    const source = await open();
    for (const [i, tags] of TAGS.entries()) await source.remember({ scope: S, layer: 'semantic', content: `Fact number ${i}`, tags });
    const before = await everything(source);
    const files = await source.exportMarkdown({ scope: S });
    for (const text of Object.values(files)) expect(editorLines(text)).toEqual(text.split('\n'));
    expect(files['profile.md']).toContain('· tags: "Paris, France"');
    expect(files['profile.md']).toContain(', back\\slash, plain\n');

    const target = await open();
    expect(await target.importMarkdown(files, { scope: S })).toMatchObject({ created: TAGS.length, updated: 0, added: 0 });
    expect(await everything(target)).toStrictEqual(before);
    expect((await everything(target)).map((r) => r.tags).sort()).toEqual([...TAGS].sort());
    expect(await source.importMarkdown(files, { scope: S })).toMatchObject({ updated: 0, added: 0, unchanged: TAGS.length });
    expect(await everything(source)).toStrictEqual(before);
  });

  it('takes a tag a person adds next to a written-out one, and reads hand-written tag lists as before', async () => {
    const engram = await open();
    const { id } = await engram.remember({ scope: S, layer: 'semantic', content: 'Dave likes tea', tags: ['Paris, France'] });
    const files = await engram.exportMarkdown({ scope: S });
    const edited = { ...files, 'profile.md': files['profile.md']!.replace('tags: "Paris, France"', 'tags: "Paris, France", tea') };
    expect(await engram.importMarkdown(edited, { scope: S })).toMatchObject({ updated: 1, added: 0 });
    expect((await engram.get(id, { scopes: [S] }))?.tags).toEqual(['Paris, France', 'tea']);

    const handWritten = [
      '- [2024-05-01] Alice runs on Sundays',
      '  · importance 0.5 · tags:  running , sport,, "morning, early" , 5" screen, "unclosed · pinned',
    ].join('\n');
    expect(parseEntries('profile.md', handWritten)[0]).toMatchObject({
      tags: ['running', 'sport', 'morning, early', '5" screen', '"unclosed'],
      pinned: true,
    });
  });
});
