/**
 * Cutting text to a length without breaking a character: the prefix ends where a user-perceived
 * character (an extended grapheme cluster: a surrogate pair, "e" + combining accent, a flag, a ZWJ
 * family emoji) ends, so a cut never leaves a lone surrogate (invalid UTF-8 on the wire, U+FFFD once
 * stored) nor half a flag or family.
 */

let segmenter: Intl.Segmenter | undefined;

/** One grapheme segmenter for the process, made on first use. */
function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  return segmenter;
}

/**
 * The longest prefix of `text` at most `maxUnits` UTF-16 code units long that ends on a grapheme
 * boundary: `text` itself when it fits, `''` when its first grapheme alone is longer.
 * @example cutText('ab👨‍👩‍👧cd', 5) // 'ab'
 */
export function cutText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const at = Math.max(0, Math.floor(maxUnits));
  if (at === 0) return '';
  // two ASCII characters other than CR LF always have a boundary between them
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  if (before < 0x80 && after < 0x80 && !(before === 0x0d && after === 0x0a)) return text.slice(0, at);
  // a boundary depends on what precedes it and on the one character after it, so the rest is not segmented
  const head = text.slice(0, at + 2);
  const grapheme = graphemeSegmenter().segment(head).containing(at);
  return text.slice(0, grapheme?.index ?? at);
}
