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

  it('uses the given UTC offset for wall-clock days', () => {
    // 23:30 UTC is already Saturday 16 March at UTC+2, so "yesterday" is Friday there
    const window = parseTemporalExpression('yesterday', REFERENCE, { timezoneOffsetMinutes: 120 });
    expect(window).toEqual({ start: day(2024, 3, 15) - 2 * 3_600_000, end: day(2024, 3, 16) - 2 * 3_600_000, text: 'yesterday' });
  });

  it('is fast on queries with and without dates', () => {
    const queries = ['what did we do last May?', 'tell me about the deploy pipeline', 'two weeks before 8 May 2023'];
    for (let index = 0; index < 200; index++) parseTemporalExpression(queries[index % 3] ?? '', REFERENCE);
    const started = performance.now();
    for (let index = 0; index < 3000; index++) parseTemporalExpression(queries[index % 3] ?? '', REFERENCE);
    const perCall = (performance.now() - started) / 3000;
    console.info(`parseTemporalExpression: ${(perCall * 1000).toFixed(1)} µs per call`);
    expect(perCall).toBeLessThan(1);
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
