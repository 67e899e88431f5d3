/**
 * A short stable digest of text (FNV-1a, 64 bits, hex) for source message ids of records that have
 * no id of their own (an observation, a vault note's line). Not cryptographic; collisions only make
 * a second, different text look already imported, and 64 bits make that vanishingly rare.
 */

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/**
 * The digest of `text` as 16 hex digits.
 *
 * @example
 * ```ts
 * stableHash('hello'); // 'a430d84680aabd0b'
 * ```
 */
export function stableHash(text: string): string {
  let hash = OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, '0');
}
