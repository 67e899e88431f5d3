/**
 * Strict UTF-8 decoding: valid text decodes as the platform's decoder does, and anything else is
 * refused at the first byte of the first ill-formed sequence, never turned into U+FFFD.
 */
import { describe, expect, it } from 'vitest';
import { decodeUtf8, describeInvalidByte } from '../../../src/core/text/utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('decodeUtf8', () => {
  it('decodes valid text of every sequence length, dropping a leading byte order mark', () => {
    const text = 'a é € 𝄞 日本 🙂';
    expect(decodeUtf8(utf8(text))).toEqual({ text });
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('{"a":1}')]))).toEqual({ text: '{"a":1}' });
    expect(decodeUtf8(bytes())).toEqual({ text: '' });
  });

  it('names the first bad byte: Latin-1, a stray continuation byte, a character cut short, overlong and surrogate forms', () => {
    const cases: [Uint8Array, number][] = [
      [bytes(0x63, 0x61, 0x66, 0xe9, 0x20, 0x78), 3], // "café x" in Latin-1
      [bytes(0x62, 0x61, 0x64, 0x20, 0xff, 0xfe), 4],
      [bytes(0x61, 0x80), 1],
      [Uint8Array.from([...utf8('ok '), 0xe2, 0x82]), 3], // € cut short at the end
      [Uint8Array.from([...utf8('ok '), 0xe2, 0x82, 0x41]), 3], // … and in the middle
      [bytes(0xc0, 0xaf), 0], // overlong '/'
      [bytes(0xe0, 0x80, 0xaf), 0],
      [bytes(0x41, 0xed, 0xa0, 0x80), 1], // a UTF-16 surrogate encoded as UTF-8
      [bytes(0xf4, 0x90, 0x80, 0x80), 0], // past U+10FFFF
      [Uint8Array.from([...utf8('日本'), 0xf0, 0x9f, 0x99]), 6],
    ];
    for (const [input, offset] of cases) {
      expect(decodeUtf8(input)).toEqual({ invalidAt: offset });
      expect(new TextDecoder().decode(input)).toContain('\ufffd'); // what a lenient reader would have stored
    }
  });

  it('agrees with the platform decoder on which byte strings are UTF-8 (random bytes biased to multi-byte forms)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const strict = new TextDecoder('utf-8', { fatal: true });
    const disagreements: string[] = [];
    for (let run = 0; run < 4_000; run++) {
      const input = Uint8Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
        random() < 0.3 ? Math.floor(random() * 128) : 0x80 + Math.floor(random() * 128),
      );
      let valid = true;
      try {
        strict.decode(input);
      } catch {
        valid = false;
      }
      const decoded = decodeUtf8(input);
      // a bad byte's offset: the bytes before it are UTF-8
      const offsetFits =
        decoded.invalidAt === undefined || (decoded.invalidAt >= 0 && decodeUtf8(input.subarray(0, decoded.invalidAt)).text !== undefined);
      if ((decoded.text !== undefined) !== valid || !offsetFits) disagreements.push(Array.from(input, (b) => b.toString(16)).join(' '));
    }
    expect(disagreements).toEqual([]);
  });

  it('describes a bad byte by offset and value', () => {
    expect(describeInvalidByte(bytes(0x63, 0xe9), 1)).toBe('byte 1 (0xe9)');
  });
});
