import { describe, expect, it } from 'vitest';
import { extractDates, parseTemporalExpression } from '../../../src/core/text/index.js';

/** Friday 15 March 2024, 23:30 UTC. */
const REFERENCE = Date.UTC(2024, 2, 15, 23, 30);
const day = (year: number, month: number, date: number): number => Date.UTC(year, month - 1, date);

function windowOf(query: string, reference = REFERENCE): [string, string, string] | null {
  const window = parseTemporalExpression(query, reference);
  if (window === null) return null;
  return [new Date(window.start).toISOString().slice(0, 10), new Date(window.end).toISOString().slice(0, 10), window.text];
}

describe('parseTemporalExpression', () => {
  it.each([
    ['what did we do last May?', '2023-05-01', '2023-06-01', 'last May'],
    ['what happened in 2023', '2023-01-01', '2024-01-01', 'in 2023'],
    ['two weeks before 8 May 2023', '2023-04-21', '2023-04-28', 'two weeks before 8 May 2023'],
    ['what did I eat yesterday', '2024-03-14', '2024-03-15', 'yesterday'],
    ['we met on 8 May 2023', '2023-05-08', '2023-05-09', 'on 8 May 2023'],
    ['what did we ship last week', '2024-03-04', '2024-03-11', 'last week'],
    ['the trip in June', '2023-06-01', '2023-07-01', 'in June'],
    ['last month', '2024-02-01', '2024-03-01', 'last month'],
    ['this week', '2024-03-11', '2024-03-18', 'this week'],
    ['last year', '2023-01-01', '2024-01-01', 'last year'],
    ['3 days ago', '2024-03-12', '2024-03-13', '3 days ago'],
    ['the week before 9 June 2023', '2023-06-02', '2023-06-09', 'the week before 9 June 2023'],
    ['in summer 2022', '2022-06-01', '2022-09-01', 'in summer 2022'],
    ['last summer', '2023-06-01', '2023-09-01', 'last summer'],
    ['early 2023', '2023-01-01', '2023-05-01', 'early 2023'],
    ['what happened in the first week of 2024', '2024-01-01', '2024-01-08', 'the first week of 2024'],
    ['the second week of May', '2023-05-08', '2023-05-15', 'the second week of May'],
    ['in the 3rd week of January', '2024-01-15', '2024-01-22', 'the 3rd week of January'],
    ['the last week of 2023', '2023-12-25', '2024-01-01', 'the last week of 2023'],
    ['the last weekend of June 2023', '2023-06-24', '2023-06-26', 'the last weekend of June 2023'],
    ['first weekend of March 2024', '2024-03-02', '2024-03-04', 'first weekend of March 2024'],
    ['in late May', '2023-05-21', '2023-06-01', 'in late May'],
    ['since March', '2024-03-01', '2024-03-16', 'since March'],
    ['between May and June 2023', '2023-05-01', '2023-07-01', 'between May and June 2023'],
    ['from May 8 to May 10, 2023', '2023-05-08', '2023-05-11', 'May 8 to May 10, 2023'],
    ['over the past 3 days', '2024-03-12', '2024-03-16', 'the past 3 days'],
    ['last weekend', '2024-03-09', '2024-03-11', 'last weekend'],
    ['on Monday', '2024-03-11', '2024-03-12', 'on Monday'],
    ['next Friday', '2024-03-22', '2024-03-23', 'next Friday'],
    ['May 2023', '2023-05-01', '2023-06-01', 'May 2023'],
    ['on 8 May', '2023-05-08', '2023-05-09', 'on 8 May'],
  ])('%s → [%s, %s)', (query, start, end, text) => {
    expect(windowOf(query)).toEqual([start, end, text]);
  });

  it('returns null when the query names no time', () => {
    for (const query of ['tell me about the deploy pipeline', 'I may go there', 'the 80L tank', 'I fall asleep quickly', '']) {
      expect(parseTemporalExpression(query, REFERENCE), query).toBeNull();
    }
  });

  it('returns epoch milliseconds for day windows', () => {
    expect(parseTemporalExpression('yesterday', REFERENCE)).toEqual({ start: day(2024, 3, 14), end: day(2024, 3, 15), text: 'yesterday' });
  });

  describe('ranges join both ends into one window', () => {
    /** Wednesday 11 March 2026. */
    const MARCH_2026 = Date.UTC(2026, 2, 11, 10);
    it.each([
      ['trips between 2019 and 2021', '2019-01-01', '2022-01-01', 'between 2019 and 2021'],
      ['trips from 2019 to 2021', '2019-01-01', '2022-01-01', 'from 2019 to 2021'],
      ['from 2020 until 2022', '2020-01-01', '2023-01-01', 'from 2020 until 2022'],
      ['sales 2019-2021', '2019-01-01', '2022-01-01', '2019-2021'],
      ['between 1850 and 1900', '1850-01-01', '1901-01-01', 'between 1850 and 1900'],
      ['between March and May 2024', '2024-03-01', '2024-06-01', 'between March and May 2024'],
      ['March–May 2024', '2024-03-01', '2024-06-01', 'March–May 2024'],
      ['between November and February 2024', '2023-11-01', '2024-03-01', 'between November and February 2024'],
      ['between March and May 2027', '2027-03-01', '2027-06-01', 'between March and May 2027'],
      ['from March 2024 to May', '2024-03-01', '2024-06-01', 'from March 2024 to May'],
      ['between March and May', '2026-03-01', '2026-06-01', 'between March and May'],
      ['from March to May', '2026-03-01', '2026-06-01', 'from March to May'],
      ['from December to February', '2025-12-01', '2026-03-01', 'from December to February'],
      ['between 5 and 10 May', '2025-05-05', '2025-05-11', 'between 5 and 10 May'],
      ['from 5 to 10 May 2024', '2024-05-05', '2024-05-11', 'from 5 to 10 May 2024'],
      ['between May 5 and 10', '2025-05-05', '2025-05-11', 'between May 5 and 10'],
    ])('%s → [%s, %s)', (query, start, end, text) => {
      expect(windowOf(query, MARCH_2026)).toEqual([start, end, text]);
    });

    it('the range covers both ends, the single year or month alone does not', () => {
      const range = parseTemporalExpression('between 2019 and 2021', MARCH_2026);
      const first = parseTemporalExpression('in 2019', MARCH_2026);
      const last = parseTemporalExpression('in 2021', MARCH_2026);
      expect(range?.start).toBe(first?.start);
      expect(range?.end).toBe(last?.end);
    });

    it('"and" makes no range without "between", and a range needs its ends in order', () => {
      expect(windowOf('March and May', MARCH_2026)?.[2]).toBe('March');
      expect(windowOf('in 1990 and 1991', MARCH_2026)?.[2]).toBe('in 1990');
      expect(windowOf('between 2021 and 2019', MARCH_2026)?.[2]).not.toBe('between 2021 and 2019');
    });
  });

  it('reads years outside 1900-2099 where a date word says they are years', () => {
    for (const year of [1850, 1899, 2100, 2150]) {
      expect(windowOf(`what happened in ${year}`), String(year)).toEqual([`${year}-01-01`, `${year + 1}-01-01`, `in ${year}`]);
    }
    expect(windowOf('in summer 1850')).toEqual(['1850-06-01', '1850-09-01', 'in summer 1850']);
    expect(windowOf('in May 2150')).toEqual(['2150-05-01', '2150-06-01', 'in May 2150']);
  });

  it('reads no year in an amount: a number with a unit, or a bare number without a date word', () => {
    for (const query of [
      'it costs 2500 dollars',
      'it responds in 1500 ms',
      'it responds in 2000 ms',
      'between 1500 and 2000 ms',
      'in 2019 to 2021 dollars',
      'it grew by 1500-2000',
      'in 1500 metres turn left',
      'around 2000 kg',
    ]) {
      expect(parseTemporalExpression(query, REFERENCE), query).toBeNull();
    }
    // a sentence that starts with a year and goes on about people is still dated
    expect(windowOf('in 2020 people stayed home')?.[2]).toBe('in 2020');
  });

  it('clamps a day that a month or year back does not have to the end of that month, never rolling into the next', () => {
    const leapDay = Date.UTC(2024, 1, 29, 12);
    const lastOfMarch = Date.UTC(2024, 2, 31, 12);
    for (const query of ['a year ago', 'last year on this day'])
      expect(windowOf(query, leapDay), query).toEqual(['2023-02-28', '2023-03-01', query]);
    expect(windowOf('a year ago', lastOfMarch)).toEqual(['2023-03-31', '2023-04-01', 'a year ago']);
    // "a month ago" names the month the day falls in: 29 February, so February
    expect(windowOf('a month ago', lastOfMarch)).toEqual(['2024-02-01', '2024-03-01', 'a month ago']);
    expect(windowOf('in a month', Date.UTC(2024, 0, 31, 12))).toEqual(['2024-02-01', '2024-03-01', 'in a month']);
    expect(windowOf('the past month', lastOfMarch)).toEqual(['2024-02-29', '2024-04-01', 'the past month']);
    expect(windowOf('the past year', leapDay)).toEqual(['2023-02-28', '2024-03-01', 'the past year']);
  });

  it('uses the given UTC offset for wall-clock days', () => {
    // 23:30 UTC is already Saturday 16 March at UTC+2, so "yesterday" is Friday there
    const window = parseTemporalExpression('yesterday', REFERENCE, { timezoneOffsetMinutes: 120 });
    expect(window).toEqual({ start: day(2024, 3, 15) - 2 * 3_600_000, end: day(2024, 3, 16) - 2 * 3_600_000, text: 'yesterday' });
  });
});

describe('extractDates', () => {
  it('finds every date in a stored text, in order', () => {
    const dates = extractDates('We moved to Berlin in June 2021. I saw her in June. On 8 May 2023 we married.', REFERENCE);
    expect(dates.map((window) => window.text)).toEqual(['in June 2021', 'in June', 'On 8 May 2023']);
    expect(dates.map((window) => [window.start, window.end])).toEqual([
      [day(2021, 6, 1), day(2021, 7, 1)],
      [day(2023, 6, 1), day(2023, 7, 1)],
      [day(2023, 5, 8), day(2023, 5, 9)],
    ]);
  });

  it('resolves a yearless date forward when the sentence speaks of the future', () => {
    const [launch] = extractDates('The launch is due in June.', REFERENCE);
    expect(launch).toEqual({ start: day(2024, 6, 1), end: day(2024, 7, 1), text: 'in June' });
  });

  it('finds expressions whose only time word is a plural, an abbreviation or a season (the gate before parsing lets them through)', () => {
    const texts = [
      'we meet again in two weeks',
      'a few hours later it rained',
      'we swim on Thursday',
      'the sept. meeting',
      'see you in three days',
      'last winter was cold',
      'it happened last night',
    ];
    for (const text of texts) expect(extractDates(text, REFERENCE).length, text).toBeGreaterThan(0);
  });

  it('finds in a long text, read in segments, every date it finds in each sentence alone', () => {
    const sentences = Array.from({ length: 400 }, (_, i) =>
      i % 3 === 0 ? `Note ${i}: we met on ${(i % 28) + 1} May 2023 and talked.` : `Note ${i} has nothing dated in it at all, only words.`,
    );
    // one long sentence without a full stop, too: a paste of log lines
    const text = `${sentences.join(' ')}\n${'yesterday it rained '.repeat(300)}`;
    expect(text.length).toBeGreaterThan(20_000);
    const found = extractDates(text, REFERENCE);
    let offset = 0;
    const expected: string[] = [];
    for (const sentence of sentences) {
      for (const window of extractDates(sentence, REFERENCE)) expected.push(`${window.text}@${window.start}`);
      offset += sentence.length + 1;
    }
    expect(offset).toBeGreaterThan(0);
    const dated = found.filter((window) => window.text !== 'yesterday');
    expect(dated.map((window) => `${window.text}@${window.start}`)).toEqual(expected);
    expect(found.filter((window) => window.text === 'yesterday')).toHaveLength(300);
  });

  it('returns an empty list for text without dates', () => {
    expect(extractDates('The robot picked up the mug.', REFERENCE)).toEqual([]);
  });

  it('reads "for 3 years" and "for about a month" as durations, not as dates ahead', () => {
    expect(extractDates("I've had them for 3 years and played for about a month.", REFERENCE)).toEqual([]);
    expect(extractDates('We stayed for 2 weeks in March.', REFERENCE).map((window) => window.text)).toEqual(['in March']);
    // an offset that is one still counts
    expect(extractDates('I will be there in 3 years.', REFERENCE).map((window) => window.text)).toEqual(['in 3 years']);
  });
});
