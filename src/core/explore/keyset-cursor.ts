/**
 * Opaque keyset cursors for lists other than the browse: base64url text of a small JSON array (a
 * kind, the position's values, a checksum). A cursor that does not decode, was edited or belongs to
 * another kind of list is refused with `INVALID_INPUT` (field `cursor`).
 */
import { EngramError } from '../errors.js';
import { base64UrlEncode, decodeJsonCursor, fnv1a } from '../browse/cursor.js';

/** The cursor of a position (`values`) in a list of `kind`. */
export function encodeKeyset(kind: string, values: readonly string[]): string {
  const body = [kind, ...values];
  return base64UrlEncode(new TextEncoder().encode(JSON.stringify([...body, fnv1a(JSON.stringify(body))])));
}

/** The `count` values of a cursor of `kind`. */
export function decodeKeyset(kind: string, cursor: string, count: number): string[] {
  const values = parse(cursor);
  if (values === undefined || values[0] !== kind || values.length !== count + 1) {
    throw new EngramError(
      'INVALID_INPUT',
      'Invalid input: the cursor is not valid (damaged, edited or from another list): pass nextCursor exactly as the previous page returned it, or omit cursor to start from the first page.',
      {
        details: { field: 'cursor' },
      },
    );
  }
  return values.slice(1);
}

function parse(cursor: string): string[] | undefined {
  const value = decodeJsonCursor(cursor);
  if (!Array.isArray(value) || value.length < 2 || !value.every((v) => typeof v === 'string')) return undefined;
  const body = value.slice(0, -1) as string[];
  return value[value.length - 1] === fnv1a(JSON.stringify(body)) ? body : undefined;
}
