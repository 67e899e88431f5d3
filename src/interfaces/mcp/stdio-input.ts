/**
 * What the SDK's stdio transport reads: stdin, line by line, less the requests it would drop without an
 * answer (a line its JSON-RPC schema refuses, e.g. `"params": null`), which are answered here on stdout.
 * Every other line goes through unchanged, and the transport does the rest as before.
 */
import { Transform, type Readable } from 'node:stream';
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

/** The serialized answer to a line the transport would drop unanswered, else undefined. */
function answerOf(line: Buffer): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined; // not JSON: no id to answer to; the transport reports it as before
  }
  const answer = answerInvalidRequest(message);
  return answer === undefined ? undefined : `${JSON.stringify(answer)}\n`;
}
