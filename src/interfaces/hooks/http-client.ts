/**
 * A minimal JSON POST over node:http(s). Hooks start a fresh process per prompt, and loading fetch's
 * HTTP stack costs more than the request itself.
 */
import { request as httpRequest } from 'node:http';

export interface JsonResponse {
  status: number;
  body: unknown;
}

/** Connection-level failure (nothing listening, reset): the caller may fall back to the local store. */
export class ConnectionError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'ConnectionError';
    this.code = code;
  }
}

/** POSTs `body` as JSON and parses the JSON answer (an unparsable answer is `{}`). */
export async function postJson(
  url: URL,
  body: unknown,
  options: { headers?: Record<string, string>; timeoutMs: number },
): Promise<JsonResponse> {
  const payload = Buffer.from(JSON.stringify(body));
  // TLS is loaded only for an https server.
  const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(payload.length), ...options.headers },
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          let parsed: unknown = {};
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // not JSON: keep {}
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} within ${options.timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const connection =
        error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET' || error.code === 'EHOSTUNREACH' || error.code === 'ENOTFOUND';
      reject(connection ? new ConnectionError(`cannot reach ${url.origin}: ${error.code}`, error.code) : error);
    });
    req.end(payload);
  });
}
