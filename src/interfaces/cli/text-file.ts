/**
 * Text of a file or stdin the CLI reads (--file, importers, --episode): UTF-8, strictly. Bytes that
 * are not UTF-8 are refused naming the file, the byte and its line, before anything is written,
 * instead of being read as U+FFFD and stored changed.
 */
import { EngramError, messages } from '../../core/errors.js';
import { decodeUtf8, describeInvalidByte } from '../../core/text/utf8.js';

/**
 * `bytes` (read from `what`, e.g. `--file notes.jsonl`) as text, without the byte order mark some
 * editors write first; `INVALID_INPUT` when they are not UTF-8.
 *
 * @example
 * ```ts
 * const text = decodeTextFile(readFileSync(path), `--file ${path}`);
 * ```
 */
export function decodeTextFile(bytes: Uint8Array, what: string): string {
  const decoded = decodeUtf8(bytes);
  if (decoded.text !== undefined) return decoded.text;
  const offset = decoded.invalidAt;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < offset; at = bytes.indexOf(0x0a, at + 1)) line++;
  throw new EngramError(
    'INVALID_INPUT',
    messages.notUtf8(what, `${describeInvalidByte(bytes, offset)}, on line ${line},`, 'Save it as UTF-8.'),
    { details: { offset, line } },
  );
}
