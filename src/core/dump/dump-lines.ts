/**
 * Lines of an NDJSON stream, read chunk by chunk (text or bytes, e.g. a Node Readable or a fetch
 * body), so an import holds one line at a time whatever the file's size.
 */
import { EngramError, messages } from '../errors.js';

/** The longest line accepted (characters): far above any record, low enough to bound memory. */
export const MAX_DUMP_LINE = 64 * 1024 * 1024;

/** One line without its `\n` (or `\r\n`), numbered from 1. Empty lines are skipped. */
export interface NumberedLine {
  text: string;
  number: number;
}

/**
 * Splits `source` into lines. Bytes are decoded as UTF-8 (a character split across chunks is kept
 * whole); a line longer than `maxLength` is `INVALID_INPUT`.
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
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let pending = '';
  let number = 0;
  const tooLong = (): EngramError =>
    new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`line ${number + 1} is longer than ${maxLength} characters: is this an NDJSON file (one JSON value per line)?`),
      {
        details: { line: number + 1 },
      },
    );
  for await (const chunk of source) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
      number++;
      const text = pending.slice(start, end).replace(/\r$/, '');
      start = end + 1;
      if (text.length > maxLength) throw tooLong();
      if (text.trim().length > 0) yield { text, number };
    }
    pending = pending.slice(start);
    if (pending.length > maxLength) throw tooLong();
  }
  pending += decoder.decode();
  if (pending.trim().length > 0) yield { text: pending.replace(/\r$/, ''), number: number + 1 };
}
