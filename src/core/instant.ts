/**
 * Strict instants: real calendar dates in years 0001-9999, as ISO 8601 text or integer epoch
 * milliseconds. `Date.parse` rolls 2024-02-30 over to 1 March and accepts years far outside what
 * `toISOString` can print, so text is checked field by field before it is parsed.
 */

/** 0001-01-01T00:00:00.000Z in epoch ms. */
export const MIN_INSTANT_MS = -62_135_596_800_000;
/** 9999-12-31T23:59:59.999Z in epoch ms. */
export const MAX_INSTANT_MS = 253_402_300_799_999;

/** Is `value` an integer epoch-ms instant in years 0001-9999? */
export function isInstant(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= MIN_INSTANT_MS && value <= MAX_INSTANT_MS;
}

/**
 * A date typed as text where no JSON type says what it is (a CLI flag, a query-string parameter), as
 * `instantSchema` takes it: whole epoch milliseconds when it is written as an integer (`1714560000000`, `0`,
 * `-1`) but for four digits (`2023` is a year, no moment of 1970), else the text itself, ISO 8601 for the schema to check (undefined stays undefined: a flag not given).
 * @example instantFromText('1714560000000') // 1714560000000
 * @example instantFromText('2024-05-01') // '2024-05-01'
 */
export function instantFromText(text: string): string | number;
export function instantFromText(text: string | undefined): string | number | undefined;
export function instantFromText(text: string | undefined): string | number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  // a four-digit number is a year, not a moment of 1970: the date check refuses it with its hint
  return /^-?\d{1,16}$/.test(trimmed) && !/^[1-9]\d{3}$/.test(trimmed) ? Number(trimmed) : text;
}

const ISO = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Parses ISO 8601 text (`2024-05`, `2024-05-01`, `2024-05-01T12:00`, `…:30.5Z`, `…+02:00`, `…+0200`,
 * `…+02`, a lower-case `t` or `z`) to epoch
 * ms; NaN unless every field is in range and the instant falls in years 0001-9999. Dates without a
 * time are UTC midnight; a time without an offset is local time, as `Date.parse` reads it.
 */
export function parseIsoInstant(text: string): number {
  const match = ISO.exec(text.trim());
  if (match === null) return Number.NaN;
  const [, year, month, day, hour, minute, second, fraction, given] = match;
  // ISO 8601 also writes UTC as "z" and an offset as its hours alone ("+14")
  const offset = given === 'z' ? 'Z' : given !== undefined && given.length === 3 ? `${given}00` : given;
  const y = Number(year);
  const m = Number(month);
  if (y < 1 || m < 1 || m > 12) return Number.NaN;
  if (day !== undefined && (Number(day) < 1 || Number(day) > daysInMonth(y, m))) return Number.NaN;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59)) return Number.NaN;
  if (offset !== undefined && offset !== 'Z') {
    const digits = offset.replace(':', '');
    if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return Number.NaN;
  }
  const date = `${year}-${month}${day !== undefined ? `-${day}` : ''}`;
  const time =
    hour !== undefined
      ? `T${hour}:${minute}:${second ?? '00'}${fraction !== undefined ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : ''}`
      : '';
  const zone = offset === undefined || offset === 'Z' ? (offset ?? '') : `${offset.slice(0, 3)}:${offset.replace(':', '').slice(3, 5)}`;
  const ms = Date.parse(`${date}${time}${zone}`);
  return isInstant(ms) ? ms : Number.NaN;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
