/**
 * Secret names spelled with look-alike letters: `pаssword` with a Cyrillic `а`, `GITHUB_РАТ` in
 * Cyrillic capitals, `τoken` with a Greek `τ`. In the text the detectors read, a word in the place of a
 * name (before `=` or `:`, after `--`, before "is") that reads as a secret name once its look-alike
 * letters are folded to Latin is read folded. Only names are folded, never values, and a word with any
 * other non-Latin letter (Russian or Greek prose) is left as it is.
 */
import { classifyName } from './secret-names.js';

/**
 * Letters that look like a Latin one, by what they look like (after NFKC, which already maps full-width
 * and mathematical letters). Each is one UTF-16 unit folding to one, so folding keeps every offset.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ү: 'y',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ү: 'Y',
  Һ: 'H',
  Ӏ: 'I',
  // Greek
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ϲ: 'c',
  ϳ: 'j',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  Ϲ: 'C',
  // Latin and Armenian
  ı: 'i',
  ɑ: 'a',
  ɡ: 'g',
  օ: 'o',
  ս: 'u',
};

const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'u');
const LOOK_ALIKE_ALL = new RegExp(LOOK_ALIKE.source, 'gu');
/**
 * Where a name ends or starts: an assignment's separator (a closing quote and spaces before it), "is" or
 * "was" after a space, or a flag's `--`. Separators are few next to words, so they are what is searched.
 */
const NAME_PLACE = /\\?["'`]?\s{0,16}(?::=|=>|:|=)|\s{1,16}(?:is|was)\s|--(?=[\p{L}])/gu;
/** A character of a name. */
const NAME_CHAR = /[\p{L}\p{N}_.-]/u;
/** The name after a flag's `--` (a name is at most 61 characters; one more tells a longer word). */
const NAME_AFTER = /^[\p{L}\p{N}_][\p{L}\p{N}_.-]{0,62}/u;
/** The names a password said in prose has (`SPOKEN` in `detectors.ts`). */
const SPOKEN_NAME = /^(?:pass(?:word|code|phrase)|pwd)$/i;
const ASCII_NAME = /^[A-Za-z0-9_.-]{1,62}$/;

/**
 * `text` with every name spelled with look-alike letters folded to Latin (the same length, each
 * character in its place), when it reads as a secret name; the same text when it holds no look-alike.
 *
 * @example
 * ```ts
 * foldNames('p\u0430ssword: hunter2'); // 'password: hunter2'
 * ```
 */
export function foldNames(text: string): string {
  if (!LOOK_ALIKE.test(text)) return text;
  let out = '';
  let done = 0;
  NAME_PLACE.lastIndex = 0;
  for (let place = NAME_PLACE.exec(text); place !== null; place = NAME_PLACE.exec(text)) {
    const flag = place[0] === '--';
    const name = flag ? NAME_AFTER.exec(text.slice(place.index + 2, place.index + 66))?.[0] : nameBefore(text, place.index);
    if (name === undefined || name.length > 61 || !LOOK_ALIKE.test(name)) continue;
    const start = flag ? place.index + 2 : place.index - name.length;
    const folded = name.replace(LOOK_ALIKE_ALL, (c) => LOOK_ALIKES[c] as string);
    if (start < done || !ASCII_NAME.test(folded) || (classifyName(folded) === null && !SPOKEN_NAME.test(folded))) continue;
    out += text.slice(done, start) + folded;
    done = start + name.length;
  }
  return done === 0 ? text : out + text.slice(done);
}

/** The word of name characters that ends at `end` (at most 62 of them: longer is no name), or undefined. */
function nameBefore(text: string, end: number): string | undefined {
  let start = end;
  while (start > 0 && end - start < 62 && NAME_CHAR.test(text[start - 1] as string)) start -= 1;
  // a name starts with a letter, a digit or `_`
  while (start < end && (text[start] === '.' || text[start] === '-')) start += 1;
  return start < end ? text.slice(start, end) : undefined;
}
