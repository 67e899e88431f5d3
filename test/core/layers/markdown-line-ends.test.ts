/**
 * Markdown import of files saved with Windows line ends or a byte order mark: an exported folder
 * converted to CRLF reads as it was written (no entry lost, edits taken), a hand-written CRLF file
 * adds its entries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseEntries } from '../../../src/core/markdown/format.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'acme/users/alice';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const crlf = (text: string): string => text.replace(/\n/g, '\r\n');

describe('Markdown files with CRLF line ends or a byte order mark', () => {
  it('parse as the same entries as their LF text', () => {
    const lf =
      '# Log\n\n- [2024-05-01] Alice likes green tea\n  and oolong\n  · importance 0.5 · tags: tea\n  <!-- engram {"id":"x"} -->\n';
    const expected = parseEntries('log.md', lf);
    expect(expected).toHaveLength(1);
    expect(parseEntries('log.md', crlf(lf))).toEqual(expected);
    expect(parseEntries('log.md', `\uFEFF${crlf(lf)}`)).toEqual(expected);
    expect(parseEntries('profile.md', '\uFEFF- [2024-05-01] Alice runs on Sundays\r\n')[0]?.content).toBe('Alice runs on Sundays');
  });

  it('an exported folder converted to CRLF imports unchanged, and an edit made in it is taken', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    const { engram } = t;
    await engram.remember({ scope: S, layer: 'semantic', content: 'Alice likes green tea.', validFrom: '2024-05-01' });
    await engram.remember({ scope: S, layer: 'semantic', content: 'Alice runs on Sundays.', validFrom: '2024-05-02' });
    const files = Object.fromEntries(Object.entries(await engram.exportMarkdown({ scope: S })).map(([name, text]) => [name, crlf(text)]));
    expect(await engram.importMarkdown(files, { scope: S })).toMatchObject({ updated: 0, added: 0, unchanged: 2 });
    const edited = Object.fromEntries(
      Object.entries(files).map(([name, text]) => [name, text.replace('Alice runs on Sundays.', 'Alice runs on Saturdays.')]),
    );
    expect(await engram.importMarkdown(edited, { scope: S })).toMatchObject({ updated: 1, added: 0, unchanged: 1 });
    const contents = (await engram.store.listMemories({ scopes: [S], limit: 10 })).map((r) => r.content).sort();
    expect(contents).toEqual(['Alice likes green tea.', 'Alice runs on Saturdays.']);
  });
});
