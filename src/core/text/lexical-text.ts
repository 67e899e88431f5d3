/**
 * The form of a stored text that a word index splitting on spaces and punctuation (SQLite FTS5's
 * unicode61) is given, so that it sees the words `tokenize` sees: compatibility characters folded
 * (NFKC: full-width letters and digits, ligatures, circled and superscript forms) and CJK words spaced.
 * PostgreSQL's lexemes come from `tokenize` itself, so both stores match the same words.
 */
import { spaceCjkWords } from './cjk.js';

const ASCII_ONLY = /^[\x00-\x7F]*$/u;

/**
 * `text` in Unicode compatibility form (NFKC), as `tokenize` reads it. ASCII text is its own NFKC
 * form and is returned as it is, without the normalisation's cost.
 * @example compatibilityForm('Ｔｅｓｌａ ﬁnance') // 'Tesla finance'
 */
export function compatibilityForm(text: string): string {
  return ASCII_ONLY.test(text) ? text : text.normalize('NFKC');
}

/**
 * What the index is given for `text`: its {@link compatibilityForm} with the words of its CJK runs
 * spaced (`spaceCjkWords`); `null` when that is `text` itself (index it as it is), as it is for ASCII.
 * @example lexicalText('Ｔｅｓｌａ earnings') // 'Tesla earnings'
 * @example lexicalText('我喜欢喝咖啡。') // ' 我  喜欢  喝  咖啡 。'
 * @example lexicalText('The deploy failed') // null
 */
export function lexicalText(text: string): string | null {
  if (ASCII_ONLY.test(text)) return null;
  const folded = text.normalize('NFKC');
  const indexed = spaceCjkWords(folded) ?? folded;
  return indexed === text ? null : indexed;
}
