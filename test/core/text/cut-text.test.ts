/**
 * `cutText`: the longest prefix within a length that ends where a grapheme ends, checked against a full
 * segmentation of each text at every length.
 */
import { describe, expect, it } from 'vitest';
import { cutText } from '../../../src/core/text/index.js';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Every grapheme boundary of `text`, as UTF-16 offsets (0 and the length included). */
function boundaries(text: string): number[] {
  return [...[...graphemes.segment(text)].map((s) => s.index), text.length];
}

const TEXTS = {
  ascii: 'Always greet the user warmly, then answer.',
  crlf: 'line one\r\nline two\r\nline three',
  emoji: `${'a'.repeat(7)}😀b😀😀 tail`,
  family: 'Trip 👨‍👩‍👧‍👦 and 👩🏽‍💻 at work',
  flags: 'Flags 🇵🇹🇫🇷🇯🇵 in a row',
  combining: 'Cafe\u0301 and nai\u0308ve and Zalgo z\u0351\u0352\u0353\u0354 end',
  hangul: '한국어 텍스트와 \u1100\u1161\u11a8 조합',
  devanagari: 'नमस्ते दुनिया क्षत्रिय',
  keycap: 'Press 1\ufe0f\u20e3 then #\ufe0f\u20e3',
};

describe('cutText', () => {
  it('returns the longest prefix within maxUnits that ends on a grapheme boundary, at every length', () => {
    for (const [name, text] of Object.entries(TEXTS)) {
      const ends = boundaries(text);
      for (let max = 0; max <= text.length + 2; max++) {
        const cut = cutText(text, max);
        const expected = Math.max(...ends.filter((b) => b <= max));
        expect({ name, max, cut }).toEqual({ name, max, cut: text.slice(0, expected) });
      }
    }
  });

  it('never leaves a lone surrogate, half a flag or half a ZWJ sequence', () => {
    const unit = '👨‍👩‍👧‍👦🇵🇹é';
    const text = `Rule: ${unit.repeat(40)}`;
    const whole = new Set([...graphemes.segment(unit)].map((s) => s.segment));
    for (let max = 7; max <= text.length; max++) {
      const cut = cutText(text, max);
      expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      const last = graphemes.segment(cut).containing(cut.length - 1)?.segment ?? '';
      if (cut.length > 'Rule: '.length) expect(whole.has(last)).toBe(true);
    }
  });

  it('gives the text itself when it fits, and nothing when its first grapheme alone is longer', () => {
    expect(cutText('short', 5)).toBe('short');
    expect(cutText('short', 100)).toBe('short');
    expect(cutText('🇵🇹 flag first', 3)).toBe('');
    expect(cutText('anything', -1)).toBe('');
  });

  it('decides from the text before the cut and one character after, however long the rest is', () => {
    const tail = '👍🏽'.repeat(50_000);
    const text = `${'x'.repeat(9)}👍🏽${tail}`;
    // a skin-tone modifier continues its emoji: the cut may not fall between them
    expect(cutText(text, 11)).toBe('x'.repeat(9));
    expect(cutText(text, 13)).toBe(`${'x'.repeat(9)}👍🏽`);
  });
});
