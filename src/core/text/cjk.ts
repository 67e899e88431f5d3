/**
 * Chinese, Japanese and Korean text for the lexical channel. These scripts do not put spaces between
 * words, so a run such as "我喜欢喝咖啡" would otherwise be one token that no query matches. Runs are cut
 * into words by `Intl.Segmenter` (ICU's dictionary segmenter, built into Node: no dependency, no model
 * file), e.g. 我 | 喜欢 | 喝 | 咖啡. Text without these scripts is never touched, so English tokens,
 * stems, FTS terms and rankings stay exactly as they were.
 */

/** Han (Chinese characters, kanji), kana and Hangul: the scripts written without spaces between words. */
const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

let segmenter: Intl.Segmenter | undefined;

/** One segmenter for the process, made on first use (construction loads ICU's dictionaries). */
function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  return segmenter;
}

/** Whether `text` holds a character of a script written without spaces (Han, kana, Hangul). */
export function hasCjk(text: string): boolean {
  return CJK_CHARACTER.test(text);
}

/**
 * The words of a token that contains CJK characters, in order: CJK runs cut by the dictionary segmenter,
 * Latin or digit parts kept whole ("我的python项目" → 我的 | python | 项目). Punctuation is not a word.
 * @example segmentCjk('我喜欢喝咖啡') // ['我', '喜欢', '喝', '咖啡']
 */
export function segmentCjk(token: string): string[] {
  const words: string[] = [];
  for (const part of segments(token)) if (part.isWordLike === true) words.push(part.segment);
  return words;
}

/** Characters the segmenter is given at once (see `segments`). */
const WINDOW = 512;
/** Where a window may end: just after whitespace or a sentence or clause mark, always a word boundary. */
const BREAK_AFTER = /[\s。！？，、；：!?,;]/u;

/**
 * The segments of `text`, cut in windows of at most {@link WINDOW} characters that end after whitespace
 * or a sentence or clause mark. V8's segment iterator costs time in proportion to the whole string at
 * every step, so one call over a long text is quadratic: a 100,000-character record took ~20 s to index
 * (20,000 characters of Chinese 0.55 s). A window ends inside a run only where 512 characters hold no space or
 * such mark at all, and then never inside a surrogate pair.
 */
function* segments(text: string): Generator<Intl.SegmentData> {
  const segmenter = wordSegmenter();
  if (text.length <= WINDOW) {
    yield* segmenter.segment(text);
    return;
  }
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + WINDOW);
    if (end < text.length) {
      let cut = end;
      while (cut > start + 1 && !BREAK_AFTER.test(text[cut - 1] as string)) cut -= 1;
      if (cut > start + 1) end = cut;
      else if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    }
    yield* segmenter.segment(text.slice(start, end));
    start = end;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `text` with spaces between the words of its CJK runs, for an index that splits words on spaces and
 * punctuation (SQLite FTS5's unicode61); `null` when the text has no CJK character (index it as it is).
 * @example spaceCjkWords('我喜欢喝咖啡。') // ' 我  喜欢  喝  咖啡 。'
 */
export function spaceCjkWords(text: string): string | null {
  if (!hasCjk(text)) return null;
  let out = '';
  for (const part of segments(text)) {
    // a space on each side of a CJK word, so it never merges with a neighbouring letter run
    out += part.isWordLike === true && hasCjk(part.segment) ? ` ${part.segment} ` : part.segment;
  }
  return out;
}

/**
 * Function words of Chinese that carry no topic (particles, pronouns, copulas), dropped from content
 * terms as English stop words are. Short on purpose: BM25's IDF discounts the rest.
 */
export const CJK_STOP_WORDS: readonly string[] = [
  '的',
  '了',
  '是',
  '在',
  '和',
  '与',
  '及',
  '或',
  '也',
  '都',
  '就',
  '还',
  '又',
  '很',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '嗯',
  '我',
  '你',
  '您',
  '他',
  '她',
  '它',
  '我们',
  '你们',
  '他们',
  '她们',
  '咱们',
  '这',
  '那',
  '这个',
  '那个',
  '这些',
  '那些',
  '一个',
  '有',
  '没有',
  '不',
  '没',
  '会',
  '要',
  '把',
  '被',
  '对',
  '从',
  '到',
  '给',
  '让',
  '着',
  '过',
  '之',
  '其',
  '而',
  '什么',
  '怎么',
  '哪',
  '哪里',
  '哪儿',
  '谁',
  '吗',
  '么',
  '个',
  '些',
  '所以',
  '因为',
  '但是',
  '可是',
  '如果',
  '我的',
  '你的',
  '他的',
  '她的',
];
