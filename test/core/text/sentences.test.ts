import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../src/core/text/index.js';

function sentences(text: string): string[] {
  return splitSentences(text).map(({ start, end }) => text.slice(start, end));
}

describe('splitSentences', () => {
  it('splits after terminal punctuation and closing quotes', () => {
    expect(sentences('It works. Does it? Yes! "Great." Done')).toEqual(['It works.', 'Does it?', 'Yes!', '"Great."', 'Done']);
  });

  it('does not split after titles, initials or before a lowercase word', () => {
    expect(sentences('Dr. Smith met J. R. R. Tolkien. We use e.g. this one. Price is 3.50 today.')).toEqual([
      'Dr. Smith met J. R. R. Tolkien.',
      'We use e.g. this one.',
      'Price is 3.50 today.',
    ]);
  });

  it('treats line breaks as boundaries and trims whitespace', () => {
    expect(sentences('  - first item\n- second item\n\nNew paragraph.  ')).toEqual(['- first item', '- second item', 'New paragraph.']);
    expect(sentences(' \n\t ')).toEqual([]);
  });
});
