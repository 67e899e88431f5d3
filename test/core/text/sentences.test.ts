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

describe('splitSentences: abbreviations', () => {
  it('does not split after titles and "St." before a name', () => {
    expect(sentences("My dentist is Dr. Patel. Mrs. Lee lives on St. Mark's Road. Mr. Jones too.")).toEqual([
      'My dentist is Dr. Patel.',
      "Mrs. Lee lives on St. Mark's Road.",
      'Mr. Jones too.',
    ]);
    expect(sentences("Surgery is on dec 16 at St. Mary's. I'll stay with her.")).toEqual([
      "Surgery is on dec 16 at St. Mary's.",
      "I'll stay with her.",
    ]);
  });

  it('"etc.", "a.m.", "p.m." end a sentence only before a capital; "No." only before a word', () => {
    expect(sentences('We meet at 9 a.m. on Mondays. Bring coffee.')).toEqual(['We meet at 9 a.m. on Mondays.', 'Bring coffee.']);
    expect(sentences('We meet at 9 a.m. Bring coffee.')).toEqual(['We meet at 9 a.m.', 'Bring coffee.']);
    expect(sentences('Buy eggs, milk, etc. Then go home.')).toEqual(['Buy eggs, milk, etc.', 'Then go home.']);
    expect(sentences('We live at No. 5 Elm Road. The answer is no. We left.')).toEqual([
      'We live at No. 5 Elm Road.',
      'The answer is no.',
      'We left.',
    ]);
    expect(sentences('Tabs vs. spaces is old. Cats, i.e. pets, are fine.')).toEqual([
      'Tabs vs. spaces is old.',
      'Cats, i.e. pets, are fine.',
    ]);
  });
});
