import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../../src/core/errors.js';
import { type TextChunk, chunkText, shouldChunk } from '../../../src/core/write/chunking/index.js';

const TOPICS = ['the robot arm', 'the deploy pipeline', 'Caroline', 'the kitchen sensor', 'our budget', 'the MCP server'];

function documentOf(sentenceCount: number): { text: string; sentences: string[] } {
  const sentences: string[] = [];
  const paragraphs: string[] = [];
  let paragraph: string[] = [];
  for (let index = 0; index < sentenceCount; index++) {
    const topic = TOPICS[index % TOPICS.length] ?? '';
    const filler = ' and then it kept going for a while'.repeat(index % 4);
    const sentence = `Sentence ${index} is about ${topic}${filler}${index % 7 === 0 ? '!' : '.'}`;
    sentences.push(sentence);
    paragraph.push(sentence);
    if (index % 9 === 8) {
      paragraphs.push(paragraph.join(' '));
      paragraph = [];
    }
  }
  if (paragraph.length > 0) paragraphs.push(paragraph.join(' '));
  return { text: paragraphs.join('\n\n'), sentences };
}

function nonWhitespaceCovered(text: string, chunks: readonly TextChunk[]): boolean {
  const covered = new Uint8Array(text.length);
  for (const chunk of chunks) covered.fill(1, chunk.start, chunk.end);
  for (let index = 0; index < text.length; index++) if (covered[index] === 0 && /\S/u.test(text[index] ?? '')) return false;
  return true;
}

function expectWellFormed(text: string, chunks: readonly TextChunk[], maxChars: number): void {
  chunks.forEach((chunk, index) => {
    expect(chunk.index).toBe(index);
    expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.text.length).toBeLessThanOrEqual(maxChars);
    const previous = chunks[index - 1];
    if (previous !== undefined) {
      expect(chunk.start).toBeGreaterThanOrEqual(previous.start);
      expect(chunk.end).toBeGreaterThan(previous.end);
    }
  });
  expect(nonWhitespaceCovered(text, chunks)).toBe(true);
}

describe('chunkText', () => {
  it('splits a 20,000-character document into ordered chunks that end at sentence ends and hold every sentence', () => {
    const { text, sentences } = documentOf(400);
    expect(text.length).toBeGreaterThan(20_000);
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThanOrEqual(10);
    expectWellFormed(text, chunks, 2000);
    for (const chunk of chunks) expect(chunk.text).toMatch(/[.!]$/u);
    for (const chunk of chunks) expect(chunk.text).toMatch(/^Sentence \d+/u);
    for (const sentence of sentences)
      expect(
        chunks.some((chunk) => chunk.text.includes(sentence)),
        sentence,
      ).toBe(true);
    const firstSentenceOf = chunks.map((chunk) => Number(/^Sentence (\d+)/u.exec(chunk.text)?.[1]));
    expect([...firstSentenceOf].sort((left, right) => left - right)).toEqual(firstSentenceOf);
  });

  it('repeats the last sentence of a chunk at the start of the next', () => {
    const { text } = documentOf(120);
    const chunks = chunkText(text, { maxChars: 600, overlapSentences: 1 });
    for (let index = 1; index < chunks.length; index++) {
      const previous = chunks[index - 1] as TextChunk;
      const current = chunks[index] as TextChunk;
      const lastSentence = /Sentence \d+[^!.]*[.!]$/u.exec(previous.text)?.[0] ?? '';
      if (current.start < previous.end) expect(current.text.startsWith(lastSentence)).toBe(true);
    }
    expect(chunks.filter((chunk, index) => index > 0 && chunk.start < (chunks[index - 1]?.end ?? 0)).length).toBeGreaterThan(
      chunks.length / 2,
    );
  });

  it('prefers paragraph ends when the next paragraph would not fit', () => {
    const paragraph = (label: string): string =>
      Array.from({ length: 8 }, (_, index) => `${label} sentence ${index} has some words in it.`).join(' ');
    const text = ['Alpha', 'Beta', 'Gamma', 'Delta'].map(paragraph).join('\n\n');
    const chunks = chunkText(text, { maxChars: 600, overlapSentences: 0 });
    for (const chunk of chunks) expect(text.slice(chunk.end, chunk.end + 2) === '\n\n' || chunk.end === text.length).toBe(true);
  });

  it('cuts a single over-long sentence at whitespace, never inside a word', () => {
    const words = Array.from({ length: 600 }, (_, index) => `word${index}`);
    const text = `${words.join(' ')}.`;
    const chunks = chunkText(text, { maxChars: 500 });
    expectWellFormed(text, chunks, 500);
    for (const chunk of chunks) {
      expect(chunk.start === 0 || text[chunk.start - 1] === ' ').toBe(true);
      expect(chunk.end === text.length || text[chunk.end] === ' ').toBe(true);
    }
  });

  it('cuts a word longer than the limit where a grapheme ends: no half flag, ZWJ family or accent', () => {
    const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
    const text = `Emoji: ${'👨‍👩‍👧‍👦🇵🇹é👍🏽'.repeat(300)} done.`;
    for (const maxChars of [97, 100, 101, 250, 499, 500]) {
      const chunks = chunkText(text, { maxChars });
      expectWellFormed(text, chunks, maxChars);
      expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks) {
        expect(graphemes.segment(text).containing(chunk.start)?.index).toBe(chunk.start);
        if (chunk.end < text.length) expect(graphemes.segment(text).containing(chunk.end)?.index).toBe(chunk.end);
      }
    }
  });

  it('returns one chunk for short text and none for blank text', () => {
    expect(chunkText('  Just a note.  ')).toEqual([{ index: 0, start: 2, end: 14, text: 'Just a note.' }]);
    expect(chunkText(' \n\n ')).toEqual([]);
  });

  it('rejects invalid options with INVALID_INPUT', () => {
    for (const options of [{ maxChars: 0 }, { maxChars: 1.5 }, { overlapSentences: -1 }]) {
      try {
        chunkText('text', options);
        expect.unreachable();
      } catch (error) {
        expect(isEngramError(error) && error.code).toBe('INVALID_INPUT');
      }
    }
  });

  const word = fc.stringMatching(/^[A-Za-z0-9éß'-]{1,12}$/u);
  const sentence = fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 25 }), fc.constantFrom('.', '!', '?', '...', '', '."'))
    .map(([words, end]) => `${words.join(' ')}${end}`);
  const paragraph = fc.array(sentence, { minLength: 1, maxLength: 8 }).map((sentences) => sentences.join(' '));
  const document = fc
    .tuple(fc.array(paragraph, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n\n', '\n', '\n \n\t'))
    .map(([paragraphs, separator]) => paragraphs.join(separator));

  it('property: chunks are ordered, bounded, exact slices that cover the text and never split a word', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 20, max: 800 }), fc.integer({ min: 0, max: 3 }), (text, maxChars, overlapSentences) => {
        const chunks = chunkText(text, { maxChars, overlapSentences });
        expectWellFormed(text, chunks, maxChars);
        for (const chunk of chunks) {
          expect(chunk.start === 0 || /\s/u.test(text[chunk.start - 1] ?? '')).toBe(true);
          expect(chunk.end === text.length || /\s/u.test(text[chunk.end] ?? '')).toBe(true);
        }
        if (overlapSentences === 0) {
          for (let index = 1; index < chunks.length; index++)
            expect(chunks[index]?.start).toBeGreaterThanOrEqual(chunks[index - 1]?.end ?? 0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: any string, even without spaces, is covered by bounded chunks', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.integer({ min: 1, max: 300 }), (text, maxChars) => {
        expectWellFormed(text, chunkText(text, { maxChars }), maxChars);
      }),
      { numRuns: 300 },
    );
  });
});

describe('shouldChunk', () => {
  it('is true only past the limit, ignoring surrounding whitespace', () => {
    expect(shouldChunk('short note', 2000)).toBe(false);
    expect(shouldChunk('x'.repeat(2001))).toBe(true);
    expect(shouldChunk(`  ${'x'.repeat(2000)}  `)).toBe(false);
  });
});
