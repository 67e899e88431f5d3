/**
 * Chinese date expressions: chrono-node's Simplified and Traditional Chinese parsers (weekdays, "昨天",
 * "2023年3月8日", "下周三"), after the calendar periods they miss or misread, which are read here first:
 * "去年五月" / "今年3月" (a month of a named year), "去年" / "明年" (a year), "上个月" / "本月" / "下个月",
 * "上周" / "这周" / "下个星期" (a Monday-to-Sunday week), "三天前" (a day).
 */
import type * as ChronoZh from 'chrono-node/zh';
import type { Found, ParseContext } from './temporal-patterns.js';
import { lazyRequire } from './lazy-require.js';

const chronoZh = lazyRequire<typeof ChronoZh>('chrono-node/zh');

const NUMERALS: Readonly<Record<string, number>> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
const YEAR_OFFSET: Readonly<Record<string, number>> = { 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 };
const NUMBER = '(\\d{1,2}|[一二两三四五六七八九十]{1,3})';
const YEAR_MONTH = new RegExp(`(前年|去年|今年|明年|后年)${NUMBER}月(?![\\d一二三四五六七八九十]+[日号])`, 'gu');
const YEAR_ONLY = /(前年|去年|今年|明年|后年)(?![\d一二两三四五六七八九十]+月)/gu;
const MONTH_PERIOD = /(上个?月|这个?月|本月|下个?月)/gu;
const WEEK_PERIOD = /(上个?(?:周|星期|礼拜)|这个?(?:周|星期|礼拜)|本周|下个?(?:周|星期|礼拜))(?![一二三四五六日天末1-7])/gu;
const DAYS_AGO = new RegExp(`${NUMBER}天(前|以前|之前|后|以后|之后)`, 'gu');

/** 1-99 written with digits or Chinese numerals (十二, 二十, 二十五). */
function numberOf(text: string): number {
  if (/^\d+$/u.test(text)) return Number(text);
  const [tens, ones] = text.includes('十') ? text.split('十') : ['', text];
  const high = text.includes('十') ? (tens === '' ? 1 : (NUMERALS[tens as string] ?? 0)) : 0;
  const low = ones === '' || ones === undefined ? 0 : (NUMERALS[ones] ?? 0);
  return high * 10 + low;
}

/** Chinese calendar periods, then chrono's Chinese parsers, into `found`. */
export function findChinese(context: ParseContext, found: Found[]): void {
  const { text, calendar, reference } = context;
  const today = calendar.dateOf(reference);
  for (const match of text.matchAll(YEAR_MONTH)) {
    const month = numberOf(match[2] as string);
    if (month < 1 || month > 12) continue;
    found.push({ index: match.index, text: match[0], ...calendar.month(today.year + (YEAR_OFFSET[match[1] as string] ?? 0), month) });
  }
  for (const match of text.matchAll(YEAR_ONLY))
    found.push({ index: match.index, text: match[0], ...calendar.year(today.year + (YEAR_OFFSET[match[1] as string] ?? 0)) });
  for (const match of text.matchAll(MONTH_PERIOD)) {
    const shift = match[1]?.startsWith('上') ? -1 : match[1]?.startsWith('下') ? 1 : 0;
    found.push({ index: match.index, text: match[0], ...calendar.month(today.year, today.month + shift) });
  }
  for (const match of text.matchAll(WEEK_PERIOD)) {
    const shift = match[1]?.startsWith('上') ? -1 : match[1]?.startsWith('下') ? 1 : 0;
    found.push({ index: match.index, text: match[0], ...calendar.week(today, shift) });
  }
  for (const match of text.matchAll(DAYS_AGO)) {
    const days = numberOf(match[1] as string) * (/前/u.test(match[2] as string) ? -1 : 1);
    found.push({ index: match.index, text: match[0], ...calendar.day({ ...today, day: today.day + days }) });
  }
  const wall = new Date(calendar.wallTimeOf(reference));
  const localReference = new Date(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  );
  for (const parser of [chronoZh().hans, chronoZh().hant]) {
    for (const result of parser.casual.parse(text, localReference)) {
      const start = result.start;
      // a month without a year is left to the periods above ("年五月" out of "去年五月")
      if (!start.isCertain('day') && !start.isCertain('weekday')) continue;
      const date = { year: start.get('year') ?? today.year, month: start.get('month') ?? 1, day: start.get('day') ?? 1 };
      found.push({ index: result.index, text: result.text, ...calendar.day(date) });
    }
  }
}
