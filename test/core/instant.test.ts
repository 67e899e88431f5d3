/**
 * The one date schema: ISO 8601 text checked field by field (no rollover) or integer epoch ms, years
 * 0001-9999, on every input of the library. Out-of-range values once poisoned a scope (reads failed
 * rendering them), so each is refused before anything is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INSTANT_MS, MIN_INSTANT_MS, parseIsoInstant } from '../../src/core/instant.js';
import { instantSchema } from '../../src/core/schemas.js';
import { parseDate } from '../../src/core/markdown/format.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

describe('parseIsoInstant', () => {
  it.each([
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29', Date.UTC(2000, 1, 29)],
    ['2024-05', Date.UTC(2024, 4, 1)],
    ['2024-05-01T12:00:00Z', Date.UTC(2024, 4, 1, 12)],
    ['2024-05-01T12:00Z', Date.UTC(2024, 4, 1, 12)],
    ['2024-05-01T12:00:00.5Z', Date.UTC(2024, 4, 1, 12, 0, 0, 500)],
    ['2024-05-01T12:00:00.123456Z', Date.UTC(2024, 4, 1, 12, 0, 0, 123)],
    ['2024-05-01T12:00:00+02:00', Date.UTC(2024, 4, 1, 10)],
    ['2024-05-01T12:00:00-0130', Date.UTC(2024, 4, 1, 13, 30)],
    // ISO 8601 also allows a lower-case "z" and "t", and an offset of hours alone
    ['2024-05-01t12:00z', Date.UTC(2024, 4, 1, 12)],
    ['2024-05-01T12:00+14', Date.UTC(2024, 3, 30, 22)],
    ['2024-05-01T12:00-03', Date.UTC(2024, 4, 1, 15)],
    ['0001-01-01', MIN_INSTANT_MS],
    ['9999-12-31T23:59:59.999Z', MAX_INSTANT_MS],
  ])('reads %s', (text, ms) => {
    expect(parseIsoInstant(text)).toBe(ms);
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '1900-02-29',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-05-00',
    '0000-01-01',
    '2024-05-01T24:00Z',
    '2024-05-01T12:60Z',
    '2024-05-01T12:00:60Z',
    '2024-05-01T12:00+25:00',
    '2024-05-01T12:00+02:61',
    '2024-05-01T12:00+24',
    '2024-05-01T12:00+1',
    '+275760-09-13',
    '10000-01-01',
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:00-05:00',
    'yesterday',
    '2024',
    '',
    '2024-5-1',
  ])('refuses %j', (text) => {
    expect(parseIsoInstant(text)).toBeNaN();
  });

  it('keeps Markdown visible dates to real dates too', () => {
    expect(parseDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseDate('2024-02-30')).toBeNaN();
    expect(parseDate('2024-05-01 12:00')).toBe(Date.UTC(2024, 4, 1, 12));
  });
});

describe('instantSchema', () => {
  it.each([1.5, 1e300, 9e15, -9e15, MAX_INSTANT_MS + 1, MIN_INSTANT_MS - 1, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses epoch ms %d',
    (value) => {
      expect(instantSchema.safeParse(value).success).toBe(false);
    },
  );

  it('says what to pass instead', () => {
    const fractional = instantSchema.safeParse(1.5);
    expect(fractional.error?.issues[0]?.message).toMatch(/not whole epoch milliseconds/);
    const far = instantSchema.safeParse(9e15);
    expect(far.error?.issues[0]?.message).toMatch(/outside years 0001-9999/);
    const rolled = instantSchema.safeParse('2024-02-30');
    expect(rolled.error?.issues[0]?.message).toMatch(/real calendar date/);
  });

  it('accepts both ends of the range', () => {
    expect(instantSchema.parse(MIN_INSTANT_MS)).toBe(MIN_INSTANT_MS);
    expect(instantSchema.parse(MAX_INSTANT_MS)).toBe(MAX_INSTANT_MS);
  });
});

describe('every date input of the library', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  let id: string;
  const scope = 'acme/dates';
  const BAD: readonly unknown[] = [1e300, 9e15, -9e15, 1.5, '2024-02-30', '0000-12-31'];

  beforeAll(async () => {
    ({ engram, cleanup } = await tempEngram());
    id = (await engram.remember({ scope, layer: 'semantic', content: 'The office is in Leeds.' })).id;
  });
  afterAll(() => cleanup());

  it.each(BAD)('refuses %j as occurredAt, validFrom and validTo of remember, storing nothing', async (bad) => {
    for (const field of ['occurredAt', 'validFrom', 'validTo']) {
      await expect(engram.remember({ scope, content: `an event ${String(bad)}`, [field]: bad })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    }
    expect((await engram.stats({ scopes: [scope] })).total).toBe(1);
  });

  it.each(BAD)('refuses %j as asOf, knownAt and referenceTime of recall', async (bad) => {
    for (const field of ['asOf', 'knownAt', 'referenceTime']) {
      await expect(engram.recall('office', { scopes: [scope], [field]: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
  });

  it.each(BAD)('refuses %j in update and relate, leaving the record as it was', async (bad) => {
    const before = await engram.get(id, { scopes: [scope] });
    for (const field of ['validFrom', 'validTo', 'occurredAt']) {
      await expect(engram.update(id, { [field]: bad }, { scope })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    await expect(engram.relate({ scope, from: id, type: 'RELATED_TO', to: id, validFrom: bad as number })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(await engram.get(id, { scopes: [scope] })).toEqual(before);
  });

  it('refuses an out-of-range time in a Markdown trailer', async () => {
    const files = await engram.exportMarkdown({ scope });
    const [name, text] = Object.entries(files).find(([, t]) => t.includes('"validFrom"')) as [string, string];
    const damaged = text.replace(/"validFrom":\d+/, '"validFrom":1e300');
    await expect(engram.importMarkdown({ [name]: damaged }, { scope: 'acme/imported' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/validFrom\b.* is not a date/) as unknown as string,
    });
    await expect(engram.importMarkdown({ 'log.md': '- [2024-02-30] Went to Leeds\n' }, { scope: 'acme/imported' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
