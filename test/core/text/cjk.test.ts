/**
 * Bilingual text: Chinese runs cut into words for the lexical channel (English untouched), the spaced
 * text SQLite's FTS5 indexes, Chinese dates, and entities in mixed text.
 */
import { describe, expect, it } from 'vitest';
import {
  contentTerms,
  extractDates,
  extractEntities,
  hasCjk,
  lexicalText,
  parseTemporalExpression,
  segmentCjk,
  spaceCjkWords,
  stem,
  tokenize,
} from '../../../src/core/text/index.js';
import { termCounts } from '../../../src/core/text/bm25.js';

describe('CJK tokenisation', () => {
  it('cuts an unspaced Chinese run into dictionary words', () => {
    expect(tokenize('我喜欢喝咖啡')).toEqual(['我', '喜欢', '喝', '咖啡']);
    expect(segmentCjk('数据库迁移失败了')).toEqual(['数据', '库', '迁移', '失败', '了']);
  });

  it('keeps Latin words whole inside Chinese text, lowercased', () => {
    expect(tokenize('我的Python项目deadline是下周五。')).toEqual(['我的', 'python', '项目', 'deadline', '是', '下', '周五']);
  });

  it('drops Chinese function words from content terms, as English stop words are dropped', () => {
    expect(contentTerms('我喜欢喝咖啡，尤其是拿铁。')).toEqual(['喜欢', '喝', '咖啡', '尤其是', '拿', '铁']);
    expect(contentTerms('他们在北京和上海都有办公室')).toEqual(['北京', '上海', '都有', '办公', '室']);
  });

  it('leaves stems of Chinese words as they are and counts them for BM25', () => {
    expect(stem('咖啡')).toBe('咖啡');
    expect([...termCounts('咖啡，咖啡，还是咖啡').entries()]).toEqual([
      ['咖啡', 3],
      ['还是', 1],
    ]);
  });

  it('tokenises English exactly as before (no CJK character, no change)', () => {
    const english = "Alice's v2.1 build took 1,500 ms; we'll deploy to acme.com on Friday";
    expect(hasCjk(english)).toBe(false);
    expect(tokenize(english)).toEqual([
      'alice',
      'v2.1',
      'build',
      'took',
      '1500',
      'ms',
      "we'll",
      'deploy',
      'to',
      'acme.com',
      'on',
      'friday',
    ]);
    expect(lexicalText(english)).toBeNull();
  });

  it('spaces CJK words for an index that splits on spaces, leaving the rest of the text as written', () => {
    expect(spaceCjkWords('我喜欢喝咖啡。')).toBe(' 我  喜欢  喝  咖啡 。');
    expect(spaceCjkWords('Meet Alice 明天 at 10')?.replace(/\s+/g, ' ')).toBe('Meet Alice 明天 at 10');
    expect(spaceCjkWords('東京でコーヒーを飲む')?.trim().split(/\s+/)).toContain('東京');
    expect(spaceCjkWords('The deploy — café')).toBeNull();
    expect(lexicalText('我喜欢喝咖啡。')).toBe(spaceCjkWords('我喜欢喝咖啡。'));
    expect(hasCjk('한국어 텍스트')).toBe(true);
  });

  it('gives the index the words tokenize reads: compatibility characters folded, CJK words spaced', () => {
    const texts = [
      'Ｔｅｓｌａ earnings memo',
      'The ﬁnance report',
      '昨日、新しいｉＰｈｏｎｅを買った',
      'Acme™ ships ①②',
      'ﾃｽﾄ half-width katakana',
      '["ｈｏｌｉｄａｙ","ops"]',
    ];
    for (const text of texts) {
      const indexed = lexicalText(text);
      expect(indexed, text).not.toBeNull();
      // every token of the text, as the query side reads it, is a whole word of what the index is given
      const words = new Set((indexed as string).toLowerCase().split(/[^\p{L}\p{N}\p{M}]+/u));
      for (const token of tokenize(text).filter((t) => !t.includes("'") && !t.includes('.')))
        expect(words, `${token} of ${text}`).toContain(token);
    }
    expect(lexicalText('Ｔｅｓｌａ ﬁnance')).toBe('Tesla finance');
    // text that is its own compatibility form, CJK aside, is indexed as it is
    for (const text of ['The deploy failed on Friday', 'café — naïve Zürich', '“quoted” 50% €5']) expect(lexicalText(text)).toBeNull();
  });
});

describe('Chinese dates', () => {
  /** Wednesday 15 May 2024, noon UTC. */
  const REFERENCE = Date.UTC(2024, 4, 15, 12);
  const windowOf = (text: string): [string, string, string] | null => {
    const window = parseTemporalExpression(text, REFERENCE);
    return window === null
      ? null
      : [new Date(window.start).toISOString().slice(0, 10), new Date(window.end).toISOString().slice(0, 10), window.text];
  };

  it.each([
    ['去年五月我们去了日本', '2023-05-01', '2023-06-01', '去年五月'],
    ['今年3月的会议', '2024-03-01', '2024-04-01', '今年3月'],
    ['明年', '2025-01-01', '2026-01-01', '明年'],
    ['上个月的电费', '2024-04-01', '2024-05-01', '上个月'],
    ['下个月去新加坡', '2024-06-01', '2024-07-01', '下个月'],
    ['我上周做了什么？', '2024-05-06', '2024-05-13', '上周'],
    ['三天前我去了医院', '2024-05-12', '2024-05-13', '三天前'],
    ['昨天晚上我加班了', '2024-05-14', '2024-05-15', '昨天晚上'],
    ['我下周三去上海', '2024-05-22', '2024-05-23', '下周三'],
    ['2023年3月8日开会', '2023-03-08', '2023-03-09', '2023年3月8日'],
  ])('%s → [%s, %s)', (text, start, end, expression) => {
    expect(windowOf(text)).toEqual([start, end, expression]);
  });

  it('finds no date where there is none, and English dates in mixed text still parse', () => {
    expect(windowOf('我喜欢喝咖啡')).toBeNull();
    expect(windowOf('我和Alice在last May见过')).toEqual(['2023-05-01', '2023-06-01', 'last May']);
    expect(extractDates('我们上个月去了杭州，下周三回北京。', REFERENCE).map((w) => w.text)).toEqual(['上个月', '下周三']);
  });
});

describe('entities in Chinese and mixed text', () => {
  it('finds Latin names written next to Chinese characters', () => {
    expect(extractEntities('我和李娜在北京见了Alice。')).toEqual(['alice']);
    expect(extractEntities('Alice明天要去Google面试。')).toEqual(['alice', 'google']);
  });

  it('does not break on Chinese-only text, and English is read as before', () => {
    expect(extractEntities('张伟下周三要去上海出差。')).toEqual([]);
    expect(extractEntities('Caroline met Dr. Sarah Connor in San Francisco')).toEqual(['caroline', 'sarah connor', 'san francisco']);
  });
});

describe('long texts', () => {
  /** The reference: one segmenter pass over the whole text (quadratic in V8, fine at these sizes). */
  const onePass = (text: string) => [...new Intl.Segmenter('zh', { granularity: 'word' }).segment(text)];
  function wholeText(text: string): string | null {
    if (!hasCjk(text)) return null;
    return onePass(text)
      .map((part) => (part.isWordLike === true && hasCjk(part.segment) ? ` ${part.segment} ` : part.segment))
      .join('');
  }

  const texts: Record<string, string> = {
    'Chinese with clause marks': '我喜欢喝咖啡，你呢？我们明天去北京吧。'.repeat(120),
    'English and Chinese mixed': 'We met at the café 我们在咖啡馆见面 and talked about python项目 for hours. '.repeat(60),
    Japanese: '東京で会議がありました。来週、大阪に行きます！ポール・マッカートニーの歌を聞いた。'.repeat(60),
    Korean: '한국어 텍스트를 저장합니다. 기억은 오래 갑니다! '.repeat(80),
    'emoji and astral letters around CJK': '👩‍👩‍👧‍👦 記憶 𝔘𝔫𝔦 🧠中文记忆 🇵🇹, '.repeat(120),
  };
  for (const [name, text] of Object.entries(texts)) {
    it(`indexes ${name} (${text.length} characters) exactly as one pass over the whole text would`, () => {
      expect(text.length).toBeGreaterThan(1024);
      expect(spaceCjkWords(text)).toBe(wholeText(text));
      expect(segmentCjk(text)).toEqual(
        onePass(text)
          .filter((part) => part.isWordLike === true)
          .map((part) => part.segment),
      );
    });
  }

  it('keeps every character of a run with no space or mark for over 512 characters, surrogate pairs whole', () => {
    const run = '中文𠀀记忆'.repeat(300);
    const spaced = spaceCjkWords(run) as string;
    expect(spaced.replace(/ /gu, '')).toBe(run);
    expect(spaced).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u);
  });

  it('indexes a 100,000-character mixed text, every character kept (one pass over it took ~20 s)', () => {
    const text = Object.values(texts).join(' ').repeat(10).slice(0, 100_000);
    const spaced = spaceCjkWords(text) as string;
    expect(spaced.replace(/ /gu, '')).toBe(text.replace(/ /gu, ''));
    expect(spaced).toContain(' 记忆 ');
  });
});
