/** The explorer's excerpts: at most 200 characters (code points), cut where a grapheme ends. */
import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, excerpt } from '../../src/core/explore/overview.js';

describe('excerpt', () => {
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

  it('keeps a text that fits whole, counting code points', () => {
    const emoji = '😀'.repeat(EXCERPT_CHARS);
    expect(excerpt(emoji)).toBe(emoji);
  });

  it('never ends in part of a flag, ZWJ family or accented letter', () => {
    for (const straddler of ['🇵🇹', '👨‍👩‍👧‍👦', 'e\u0301', '👍🏽']) {
      for (let before = EXCERPT_CHARS - 8; before < EXCERPT_CHARS; before++) {
        const text = `${'x'.repeat(before)}${straddler}${'y'.repeat(EXCERPT_CHARS)}`;
        const shown = excerpt(text);
        expect(shown.endsWith('…')).toBe(true);
        const kept = shown.slice(0, -1);
        expect(Array.from(kept).length).toBeLessThanOrEqual(EXCERPT_CHARS - 1);
        expect(text.startsWith(kept)).toBe(true);
        expect(graphemes.segment(text).containing(kept.length)?.index).toBe(kept.length);
      }
    }
  });
});
