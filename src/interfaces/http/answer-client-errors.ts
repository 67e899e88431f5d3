/**
 * Answers requests Node's HTTP parser refuses before any route sees them (a request line or headers
 * past `maxHeaderSize`, malformed HTTP, a request timeout) with the same JSON error body as every
 * other error, instead of Node's bare status line.
 */
import type { Duplex } from 'node:stream';
import type { HttpErrorBody } from './error-mapping.js';

/** The part of `http.Server` this needs. */
export interface ClientErrorSource {
  on(event: 'clientError', listener: (error: Error & { code?: string }, socket: Duplex) => void): unknown;
}

const ANSWERS: Readonly<Record<string, readonly [status: number, reason: string, code: string, message: string]>> = Object.freeze({
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'HEADERS_TOO_LARGE',
    'The request line or headers are larger than the server accepts (16 KiB by default): shorten the URL (send long values in a JSON body) or the headers.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request did not arrive in time: send it again.'],
  ERR_HTTP_HEADERS_TIMEOUT: [
    408,
    'Request Timeout',
    'REQUEST_TIMEOUT',
    'The request headers did not arrive in time: send the request again.',
  ],
});
const MALFORMED = [
  400,
  'Bad Request',
  'BAD_REQUEST',
  'The request is not valid HTTP/1.1: check the request line, headers and body framing.',
] as const;

/**
 * Installs the `clientError` handler on a Node server (e.g. the one `@hono/node-server`'s `serve` returns).
 *
 * @example
 * ```ts
 * answerClientErrors(serve({ fetch: app.fetch, port: 8787 }));
 * ```
 */
export function answerClientErrors(server: ClientErrorSource): void {
  server.on('clientError', (error, socket) => {
    // a reset connection has no one to answer
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, code, message] = (error.code !== undefined ? ANSWERS[error.code] : undefined) ?? MALFORMED;
    const body = JSON.stringify({ error: { code, message } } satisfies HttpErrorBody);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
