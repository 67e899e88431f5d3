/**
 * Maps errors to HTTP responses, the one table for this interface. Every error body is
 * `{"error": {"code", "message"}}`; internal failures are 5xx and never show their cause.
 */
import { isEngramError, type EngramErrorCode } from '../../core/errors.js';

/** Codes only the HTTP interface produces (the request itself, not the engine, is at fault). */
export type HttpOnlyErrorCode = 'PAYLOAD_TOO_LARGE' | 'METHOD_NOT_ALLOWED' | 'CLIENT_CLOSED_REQUEST';

/** HTTP status per engine error code. */
export const HTTP_STATUS: Record<EngramErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  SCOPE_DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  LOCKED: 409,
  EMBEDDING_MODEL_MISMATCH: 409,
  EMBEDDING_DIMENSION_MISMATCH: 409,
  EMBEDDING_FAILED: 500,
  STORAGE_CORRUPT: 500,
  INTERNAL: 500,
  STORAGE_UNAVAILABLE: 503,
  BUSY: 503,
};

/** Seconds a client should wait before retrying a `BUSY` answer (a write lock is held for milliseconds, rarely seconds). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

const HTTP_ONLY_STATUS: Record<HttpOnlyErrorCode, number> = {
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  // nginx's code for a client that left before the answer: the client never reads it, access logs do
  CLIENT_CLOSED_REQUEST: 499,
};

/** An error raised by the HTTP layer itself (e.g. a body over the size limit). */
export class HttpError extends Error {
  readonly code: HttpOnlyErrorCode;
  constructor(code: HttpOnlyErrorCode, message: string) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
  }
}

/** The client closed the connection before its request body arrived whole: its fault, not the server's. */
export function clientClosedRequest(): HttpError {
  return new HttpError(
    'CLIENT_CLOSED_REQUEST',
    'The connection closed before the whole request body arrived: send the request again (an import skips what it already wrote).',
  );
}

/**
 * Is `error` a client that went away mid-request: the error Node gives a request body when the socket
 * closes (`aborted`, ECONNRESET), a premature close of the body stream, or `clientClosedRequest()`?
 */
export function isClientAbort(error: unknown): boolean {
  if (error instanceof HttpError) return error.code === 'CLIENT_CLOSED_REQUEST';
  if (!(error instanceof Error) || isEngramError(error)) return false;
  const code = (error as { code?: unknown }).code;
  return (code === 'ECONNRESET' && error.message === 'aborted') || code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/** The wire form of an error. */
export interface HttpErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Receives internal failures (5xx) so they can be logged; the client only sees a reference id. */
export type InternalErrorLogger = (error: unknown, reference: string) => void;

/** Classifies any thrown value as a status, a JSON body and extra headers (`Retry-After` for `BUSY`). */
export function toHttpError(
  error: unknown,
  log: InternalErrorLogger = defaultLogger,
): { status: number; body: HttpErrorBody; headers?: Record<string, string> } {
  // nothing to log: the client left, and nobody reads the answer
  if (!(error instanceof HttpError) && isClientAbort(error)) return toHttpError(clientClosedRequest(), log);
  if (error instanceof HttpError) {
    return { status: HTTP_ONLY_STATUS[error.code], body: { error: { code: error.code, message: error.message } } };
  }
  if (isEngramError(error)) {
    const status = HTTP_STATUS[error.code] ?? 500;
    if (status < 500) {
      const details = Object.keys(error.details).length > 0 ? { details: { ...error.details } } : {};
      return { status, body: { error: { code: error.code, message: error.message, ...details } } };
    }
    if (error.code === 'BUSY') {
      return {
        status,
        headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
        body: {
          error: {
            code: 'BUSY',
            message: `The store is busy (another writer holds the lock): nothing was changed; retry after ${BUSY_RETRY_AFTER_SECONDS} s.`,
          },
        },
      };
    }
    if (status === 503) {
      return {
        status,
        body: {
          error: { code: error.code, message: 'The store is unavailable right now: retry shortly; if it persists, check the server log.' },
        },
      };
    }
  }
  const reference = Math.random().toString(36).slice(2, 10);
  log(error, reference);
  return {
    status: 500,
    body: {
      error: {
        code: 'INTERNAL',
        message: `Internal error (reference ${reference}): the server log has the details. This is a bug or an outage, not a problem with your request.`,
      },
    },
  };
}

/** A JSON error response for any thrown value. */
export function httpErrorResponse(error: unknown, log?: InternalErrorLogger): Response {
  const { status, body, headers } = toHttpError(error, log);
  return Response.json(body, { status, ...(headers !== undefined ? { headers } : {}) });
}

function defaultLogger(error: unknown, reference: string): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`engram http: internal error ${reference}: ${text}\n`);
}
