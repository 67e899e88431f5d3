/**
 * Cutting source text to the length a field allows (a tag, an entity, a name) without cutting a
 * character in two: a cut inside a surrogate pair leaves half an emoji, which the write path rejects
 * (the record would be skipped), and a cut inside a grapheme leaves a flag or an accent in pieces.
 */
import { cutText as cutAtGrapheme } from '../../core/text/index.js';

/**
 * The longest prefix of `text` of at most `max` UTF-16 units that ends on a grapheme boundary (on a
 * code point boundary when the first grapheme alone is longer than `max`, so a field is never empty).
 *
 * @example
 * ```ts
 * cutText('ab📚', 3); // 'ab'
 * ```
 */
export function cutText(text: string, max: number): string {
  const cut = cutAtGrapheme(text, max);
  if (cut.length > 0 || text.length === 0 || max < 1) return cut;
  // one grapheme longer than the field (a long run of combining marks): cut between code points
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
