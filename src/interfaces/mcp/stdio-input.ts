/**
 * What the SDK's stdio transport reads: stdin, line by line, less the requests it would drop without an
 * answer (a line its JSON-RPC schema refuses, e.g. `"params": null`) and the lines it would read with
 * U+FFFD in place of bytes that are not UTF-8, which are answered here on stdout.
 * Every other line goes through unchanged, and the transport does the rest as before.
 */
import { Transform, type Readable } from 'node:stream';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { decodeUtf8, describeInvalidByte } from '../../core/text/utf8.js';
import { answerInvalidRequest } from './guard-request-params.js';

/** A line longer than this is passed on uninspected: the transport's own buffer limit (10 MiB) deals with it. */
const MAX_INSPECTED_LINE = 10 * 1024 * 1024;

/**
 * Pipes `input` through the filter and returns it, to hand to `StdioServerTransport` as its stdin.
 *
 * @example
 * ```ts
 * const transport = new StdioServerTransport(answerInvalidLines(process.stdin, process.stdout), process.stdout);
 * ```
 */
export function answerInvalidLines(input: Readable, output: { write(text: string): unknown }): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const filter = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
        const line = pending.length === 0 ? data.subarray(0, newline + 1) : Buffer.concat([...pending, data.subarray(0, newline + 1)]);
        pending = [];
        pendingBytes = 0;
        const answer = line.length <= MAX_INSPECTED_LINE ? answerOf(line) : undefined;
        if (answer === undefined) this.push(line);
        else output.write(answer);
        data = data.subarray(newline + 1);
      }
      if (data.length > 0) {
        pending.push(data);
        pendingBytes += data.length;
      }
      if (pendingBytes > MAX_INSPECTED_LINE) {
        for (const piece of pending) this.push(piece);
        pending = [];
        pendingBytes = 0;
      }
      done();
    },
    flush(done) {
      for (const piece of pending) this.push(piece);
      done();
    },
  });
  input.on('error', (error) => filter.destroy(error)); // the transport listens for its stdin's errors
  input.pipe(filter);
  return filter;
}

/** The serialized answer to a line the transport would drop unanswered or read wrongly, else undefined. */
function answerOf(line: Buffer): string | undefined {
  const decoded = decodeUtf8(line);
  if (decoded.invalidAt !== undefined) return `${JSON.stringify(notUtf8(line, decoded.invalidAt))}\n`;
  let message: unknown;
  try {
    message = JSON.parse(decoded.text);
  } catch {
    return undefined; // not JSON: no id to answer to; the transport reports it as before
  }
  const answer = answerInvalidRequest(message);
  return answer === undefined ? undefined : `${JSON.stringify(answer)}\n`;
}

/**
 * The JSON-RPC parse error for a line that is not UTF-8, which the transport would read with U+FFFD in
 * place of the bad bytes: answered with the request's id when the rest of the line shows one.
 */
function notUtf8(line: Buffer, offset: number): { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } } {
  let id: string | number | null = null;
  try {
    const message = JSON.parse(line.toString('utf8')) as { id?: unknown; method?: unknown };
    if (typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number')) id = message.id;
  } catch {
    // no id to be had: answered with id null, as JSON-RPC says for a parse error
  }
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.ParseError,
      message: `Parse error: the message is not valid UTF-8: ${describeInvalidByte(line, offset)} is not part of a UTF-8 character. Send every message as UTF-8 JSON.`,
    },
  };
}
