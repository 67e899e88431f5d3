/** The plain SHA-256 that pure code digests with agrees with node:crypto on every padding case and on non-ASCII text. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/sha256.js';

describe('sha256Hex', () => {
  it('gives the digest node:crypto gives, for every length around the block and padding boundaries', () => {
    const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const texts = ['', 'abc', '张伟', 'josé', 'Été'.normalize('NFD'), '📚 Reading'];
    for (let length = 1; length <= 200; length++) texts.push('x'.repeat(length), 'é'.repeat(length));
    texts.push('a'.repeat(100_000));
    for (const text of texts) expect(sha256Hex(text)).toBe(reference(text));
  });
});
