/**
 * Lines of an NDJSON stream, read chunk by chunk (text or bytes, e.g. a Node Readable or a fetch
 * body), so an import holds one line at a time whatever the file's size.
 */
import { EngramError, messages } from '../errors.js';
import { decodeUtf8, describeInvalidByte } from '../text/utf8.js';

/** The longest line accepted (characters): far above any record, low enough to bound memory. */
export const MAX_DUMP_LINE = 64 * 1024 * 1024;

/** One line without its `\n` (or `\r\n`), numbered from 1. Empty lines are skipped. */
export interface NumberedLine {
  text: string;
  number: number;
}

/** Most bytes a character takes per UTF-16 code unit, which `maxLength` counts. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Splits `source` into lines. Bytes are decoded as UTF-8 one line at a time (a character split across
 * chunks is kept whole); a line that is not valid UTF-8, or longer than `maxLength`, is `INVALID_INPUT`
 * naming it.
 *
 * @example
 * ```ts
 * for await (const { text, number } of splitLines(createReadStream('dump.jsonl'))) console.log(number, text.length);
 * ```
 */
export async function* splitLines(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  maxLength = MAX_DUMP_LINE,
): AsyncGenerator<NumberedLine> {
  let pending = ''; // the current line's text so far
  let pendingBytes: Uint8Array[] = []; // and its bytes not decoded yet (a line is decoded once whole)
  let pendingByteCount = 0;
  let number = 0;
  const tooLong = (): EngramError =>
    new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`line ${number + 1} is longer than ${maxLength} characters: is this an NDJSON file (one JSON value per line)?`),
      {
        details: { line: number + 1 },
      },
    );
  const decodePending = (last?: Uint8Array): string => {
    const bytes =
      pendingByteCount === 0 && last !== undefined
        ? last
        : joined(last === undefined ? pendingBytes : [...pendingBytes, last], pendingByteCount + (last?.byteLength ?? 0));
    if (pendingByteCount > 0) {
      pendingBytes = [];
      pendingByteCount = 0;
    }
    const decoded = decodeUtf8(bytes);
    if (decoded.text !== undefined) return decoded.text;
    const offset = new TextEncoder().encode(pending).byteLength + decoded.invalidAt;
    throw new EngramError(
      'INVALID_INPUT',
      messages.notUtf8(
        `line ${number + 1}`,
        describeInvalidByte(bytes, decoded.invalidAt).replace(/^byte \d+/, `byte ${offset} of the line`),
        'Save the file as UTF-8.',
      ),
      { details: { line: number + 1, offset } },
    );
  };
  for await (const chunk of source) {
    if (typeof chunk === 'string') {
      if (pendingByteCount > 0) pending += decodePending();
      pending += chunk;
      let start = 0;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
        const text = pending.slice(start, end).replace(/\r$/, '');
        start = end + 1;
        if (text.length > maxLength) throw tooLong();
        number++;
        if (text.trim().length > 0) yield { text, number };
      }
      pending = pending.slice(start);
      if (pending.length > maxLength) throw tooLong();
      continue;
    }
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
      // a newline byte is never inside a UTF-8 character, so each line decodes on its own
      const text = (pending + decodePending(chunk.subarray(start, end))).replace(/\r$/, '');
      pending = '';
      start = end + 1;
      if (text.length > maxLength) throw tooLong();
      number++;
      if (text.trim().length > 0) yield { text, number };
    }
    if (start < chunk.byteLength) {
      pendingBytes.push(chunk.subarray(start));
      pendingByteCount += chunk.byteLength - start;
    }
    if (pending.length + pendingByteCount > maxLength * MAX_BYTES_PER_UNIT) throw tooLong();
  }
  if (pendingByteCount > 0) pending += decodePending();
  if (pending.length > maxLength) throw tooLong();
  if (pending.trim().length > 0) yield { text: pending.replace(/\r$/, ''), number: number + 1 };
}

/** `parts` as one array (the part itself when there is only one: no copy). */
function joined(parts: readonly Uint8Array[], byteCount: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const bytes = new Uint8Array(byteCount);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
