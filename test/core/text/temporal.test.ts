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

describe('quarters and halves of a year', () => {
  /** Monday 7 December 2026, 10:00 UTC: Q4 2026 and H2 2026 are under way. */
  const DECEMBER_2026 = Date.UTC(2026, 11, 7, 10);
  /** Tuesday 10 February 2026: Q1 2026 has started, Q2 has not. */
  const FEBRUARY_2026 = Date.UTC(2026, 1, 10, 10);

  it.each([
    ['what happened in Q3?', '2026-07-01', '2026-10-01', 'in Q3'],
    ['what did we ship in q4', '2026-10-01', '2027-01-01', 'in q4'],
    ['in Q3 2025', '2025-07-01', '2025-10-01', 'in Q3 2025'],
    ['Q3, 2025', '2025-07-01', '2025-10-01', 'Q3, 2025'],
    ['2025 Q3 numbers', '2025-07-01', '2025-10-01', '2025 Q3'],
    ['the 2025-Q3 report', '2025-07-01', '2025-10-01', '2025-Q3'],
    ["Q3'25 revenue", '2025-07-01', '2025-10-01', "Q3'25"],
    ['Q1 of 2024', '2024-01-01', '2024-04-01', 'Q1 of 2024'],
    ['Q4 last year', '2025-10-01', '2026-01-01', 'Q4 last year'],
    ['last Q3', '2026-07-01', '2026-10-01', 'last Q3'],
    ['next Q1', '2027-01-01', '2027-04-01', 'next Q1'],
    ['the third quarter of 2025', '2025-07-01', '2025-10-01', 'the third quarter of 2025'],
    ['during the 2nd quarter of last year', '2025-04-01', '2025-07-01', 'during the 2nd quarter of last year'],
    ['the last quarter of 2025', '2025-10-01', '2026-01-01', 'the last quarter of 2025'],
    ['the third quarter', '2026-07-01', '2026-10-01', 'the third quarter'],
    ['first quarter', '2026-01-01', '2026-04-01', 'first quarter'],
    ['H1 2026', '2026-01-01', '2026-07-01', 'H1 2026'],
    ['what did we do in H2', '2026-07-01', '2027-01-01', 'in H2'],
    ['the first half of 2025', '2025-01-01', '2025-07-01', 'the first half of 2025'],
    ['the second half of the year', '2026-07-01', '2027-01-01', 'the second half of the year'],
    ['this quarter', '2026-10-01', '2027-01-01', 'this quarter'],
    ['next quarter', '2027-01-01', '2027-04-01', 'next quarter'],
    ['last quarter', '2026-07-01', '2026-10-01', 'last quarter'],
    ['over the past quarter', '2026-09-07', '2026-12-08', 'the past quarter'],
    ['the last 2 quarters', '2026-06-07', '2026-12-08', 'the last 2 quarters'],
    ['since Q3', '2026-07-01', '2026-12-08', 'since Q3'],
    ['from Q3 2024 to Q1 2025', '2024-07-01', '2025-04-01', 'from Q3 2024 to Q1 2025'],
    ['between Q1 and Q3 2025', '2025-01-01', '2025-10-01', 'between Q1 and Q3 2025'],
    ['Q1–Q3 2025', '2025-01-01', '2025-10-01', 'Q1–Q3 2025'],
  ])('%s → [%s, %s)', (query, start, end, text) => {
    expect(windowOf(query, DECEMBER_2026)).toEqual([start, end, text]);
  });

  it('reads a quarter or half without a year as the most recent that has started, as "in March" is read', () => {
    // Q1 has started on 10 February, so it is this year's; Q2 has not, so it is last year's
    expect(windowOf('in Q1', FEBRUARY_2026)).toEqual(['2026-01-01', '2026-04-01', 'in Q1']);
    expect(windowOf('in Q2', FEBRUARY_2026)).toEqual(['2025-04-01', '2025-07-01', 'in Q2']);
    expect(windowOf('in H2', FEBRUARY_2026)).toEqual(['2025-07-01', '2026-01-01', 'in H2']);
    expect(windowOf('in February', FEBRUARY_2026)?.[0]).toBe('2026-02-01');
    expect(windowOf('in March', FEBRUARY_2026)?.[0]).toBe('2025-03-01');
  });

  it('reads no period inside a word, a code, a markup tag or a product name', () => {
    for (const query of [
      'we studied with SQ3L',
      '<h1>Roadmap</h1>',
      'put the title in <h1>',
      'style the h1 tags in the header',
      'in h1 elements the font is larger',
      'use h1 and h2 headings',
      'she reached the first quarter-final',
      'the H1N1 outbreak',
      'the Q30 monitor',
      'order a Q30 in blue',
      'in Q3.5 of the spec',
      'Q1: what is your name?',
      'I test drove an Audi Q3',
      'in Q5 and H3',
      'Q1 2000 units',
      'the first half of the match',
      'the first quarter of the game',
      'the fourth quarter of the century',
    ]) {
      expect(parseTemporalExpression(query, DECEMBER_2026), query).toBeNull();
    }
    // a product beside a real date: only the date
    expect(windowOf('I drove my Q3 in 2024', DECEMBER_2026)?.[2]).toBe('in 2024');
  });

  it('finds quarters and halves in stored text, forward when the sentence speaks of the future', () => {
    const dates = extractDates('Revenue grew in Q3 2025. We will launch in Q1. Sales fell in H1.', DECEMBER_2026);
    expect(dates.map((window) => [window.text, new Date(window.start).toISOString().slice(0, 10)])).toEqual([
      ['in Q3 2025', '2025-07-01'],
      ['in Q1', '2027-01-01'],
      ['in H1', '2026-01-01'],
    ]);
  });
});

describe('29 February without a year', () => {
  const iso = (window: { start: number; end: number } | undefined): [string, string] | undefined =>
    window === undefined ? undefined : [new Date(window.start).toISOString().slice(0, 10), new Date(window.end).toISOString().slice(0, 10)];

  it.each([
    // a year without one: the most recent 29 February
    ['on Feb 29', '2026-12-07T10:00:00Z', '2024-02-29', 'on Feb 29'],
    ['29 February', '2026-12-07T10:00:00Z', '2024-02-29', '29 February'],
    ['the 29th of February', '2025-06-01T00:00:00Z', '2024-02-29', 'the 29th of February'],
    ['Feb. 29', '2100-06-01T00:00:00Z', '2096-02-29', 'Feb. 29'],
    // a leap year before its 29 February: the leap year before, not 1 March of a common year
    ['on Feb 29', '2024-01-10T00:00:00Z', '2020-02-29', 'on Feb 29'],
    ['Feb 29 at 3pm', '2028-01-10T00:00:00Z', '2024-02-29', 'Feb 29 at 3pm'],
    // on or after it: this year's
    ['on Feb 29', '2024-02-29T10:00:00Z', '2024-02-29', 'on Feb 29'],
  ])('%s asked at %s → %s', (query, asked, start, text) => {
    const window = parseTemporalExpression(query, Date.parse(asked));
    expect(iso(window ?? undefined)?.[0]).toBe(start);
    expect(window?.end).toBe(Date.parse(start) + 86_400_000);
    expect(window?.text).toBe(text);
  });

  it('names no time with a year that has no 29 February, as for other impossible dates', () => {
    const reference = Date.UTC(2026, 11, 7, 10);
    for (const query of ['Feb 29, 2025', 'on 29 February 2023', 'February 29th, 2025', 'on February 30', 'on 31 April 2025']) {
      expect(parseTemporalExpression(query, reference), query).toBeNull();
    }
    expect(iso(parseTemporalExpression('Feb 29, 2024', reference) ?? undefined)).toEqual(['2024-02-29', '2024-03-01']);
  });

  it('resolves forward in stored text that speaks of the future, to the next leap year', () => {
    const reference = Date.UTC(2026, 1, 10, 10);
    expect(iso(extractDates('We will meet on Feb 29.', reference)[0])).toEqual(['2028-02-29', '2028-03-01']);
    expect(iso(extractDates('We met on Feb 29.', reference)[0])).toEqual(['2024-02-29', '2024-03-01']);
    expect(iso(extractDates('We will meet on Feb 29 at 3pm.', Date.UTC(2024, 2, 10))[0])).toEqual(['2028-02-29', '2028-03-01']);
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
    // a day of the month already gone this year is next year's; one still ahead is this year's
    expect(extractDates('We will meet on 8 March.', REFERENCE)[0]).toEqual({
      start: day(2025, 3, 8),
      end: day(2025, 3, 9),
      text: 'on 8 March',
    });
    expect(extractDates('We will meet on 20 March.', REFERENCE)[0]).toEqual({
      start: day(2024, 3, 20),
      end: day(2024, 3, 21),
      text: 'on 20 March',
    });
    expect(extractDates('We met on 8 March.', REFERENCE)[0]).toEqual({ start: day(2024, 3, 8), end: day(2024, 3, 9), text: 'on 8 March' });
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

  it('reads a yearless date of a present-tense sentence as one to come ("is on", "booked for"), of a past-tense one as gone', () => {
    const written = Date.UTC(2026, 11, 1, 10);
    const year = (text: string) => extractDates(text, written).map((window) => new Date(window.start).getUTCFullYear());
    expect(year('The parent-teacher conference is on Thursday Dec 10 at 5pm.')).toEqual([2026]);
    expect(year('Standup is at 10 on Dec 4.')).toEqual([2026]);
    expect(year('I booked a table for Dec 12.')).toEqual([2026]);
    expect(year('The party was on Dec 10.')).toEqual([2025]);
    expect(year('The meeting on Dec 10 went well.')).toEqual([2025]);
  });

  it('reads a yearless date or weekday of a question about what is to come forward, of any other question back', () => {
    const monday = Date.UTC(2026, 11, 7, 15);
    const day = (query: string) => {
      const window = parseTemporalExpression(query, monday);
      return window === null ? null : new Date(window.start).toISOString().slice(0, 10);
    };
    expect(day("what's planned for Thursday?")).toBe('2026-12-10');
    expect(day('what is due on Friday?')).toBe('2026-12-11');
    expect(day("what's booked for Dec 20?")).toBe('2026-12-20');
    expect(day('what was planned for Thursday?')).toBe('2026-12-03');
    expect(day('what did I do on Friday?')).toBe('2026-12-04');
    expect(day('what happened on Dec 20?')).toBe('2025-12-20');
    // a stored text's future-tense weekday that chrono read as the one before is the next one
    const tuesday = Date.UTC(2026, 11, 1, 10);
    expect(extractDates('We will meet on Friday.', tuesday).map((w) => new Date(w.start).toISOString().slice(0, 10))).toEqual([
      '2026-12-04',
    ]);
    expect(extractDates('We met on Friday.', tuesday).map((w) => new Date(w.start).toISOString().slice(0, 10))).toEqual(['2026-11-27']);
  });

  it('reads "for tomorrow", "for Friday" or "for today" as the day they name: only a count makes a duration', () => {
    expect(windowOf("what's on my plate for tomorrow")).toEqual(['2024-03-16', '2024-03-17', 'tomorrow']);
    expect(windowOf('plans for today')?.[2]).toBe('today');
    expect(windowOf('what did I prepare for Friday?')?.[2]).toBe('Friday');
    expect(extractDates('Booked the table for tomorrow evening.', REFERENCE).map((window) => window.text)).toEqual(['tomorrow evening']);
    for (const duration of ['for two weeks', 'for a couple of days', 'for several months', 'for an hour'])
      expect(windowOf(`I waited ${duration}`), duration).toBeNull();
  });
});
