/**
 * Reads a JSON request body under a size limit: oversized bodies are refused before they are parsed,
 * whether or not the client sent a Content-Length.
 */
import { EngramError, messages, TO_UTF8 } from '../../core/errors.js';
import { MAX_JSON_DEPTH } from '../../core/schemas.js';
import { decodeUtf8, describeInvalidByte } from '../../core/text/utf8.js';
import { clientClosedRequest, HttpError, isClientAbort } from './error-mapping.js';

/** Default request body limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses the body of `request`; throws 413 past `maxBytes`, 400 on malformed JSON, on bytes
 * that are not UTF-8 and on a declared charset other than UTF-8.
 */
export async function readJsonBody(request: Request, maxBytes: number, options: { optional?: boolean } = {}): Promise<unknown> {
  assertUtf8Charset(request, 'application/json');
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(request, maxBytes);
  if (text.trim().length === 0) {
    if (options.optional === true) return undefined;
    throw new EngramError('INVALID_INPUT', 'The request body is empty: send a JSON object (Content-Type: application/json).');
  }
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
    throw new EngramError(
      'INVALID_INPUT',
      `The request body nests JSON more than ${MAX_BODY_DEPTH} levels deep: flatten it (free-form fields such as properties may nest ${MAX_JSON_DEPTH} levels).`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    const why = cause instanceof SyntaxError ? cause.message.slice(0, 160) : 'not JSON';
    throw new EngramError(
      'INVALID_INPUT',
      `The request body is not valid JSON (${why}): send a JSON object (Content-Type: application/json).`,
    );
  }
}

/** Deepest body nesting read at all: the outer object, a list of memories and a free-form field within. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 8;

/** Do brackets outside strings nest deeper than `limit`? Checked before parsing; validity is left to JSON.parse. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // the client closed the connection mid-body: its fault, not an internal error
      if (request.signal.aborted || isClientAbort(error)) throw clientClosedRequest();
      throw error;
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const decoded = decodeUtf8(joined);
  if (decoded.text !== undefined) return decoded.text;
  throw new EngramError(
    'INVALID_INPUT',
    messages.notUtf8('the request body', describeInvalidByte(joined, decoded.invalidAt), 'Send the body as UTF-8.'),
    { details: { offset: decoded.invalidAt } },
  );
}

/** Charsets whose bytes read as UTF-8 unchanged: the only ones the API reads. */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * Refuses a body whose Content-Type declares a charset other than UTF-8 (or its subset US-ASCII)
 * rather than read it as UTF-8 and store other text than was meant; `mediaType` is what the route reads.
 *
 * @example
 * ```ts
 * assertUtf8Charset(request, 'application/x-ndjson');
 * ```
 */
export function assertUtf8Charset(request: Request, mediaType: string): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(request.headers.get('content-type') ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || UTF8_CHARSETS.has(charset)) return;
  throw new EngramError(
    'INVALID_INPUT',
    `Invalid input: the request body is declared as charset=${charset.slice(0, 40)}, and this API reads UTF-8 only: send the body as UTF-8 (Content-Type: ${mediaType}; charset=utf-8, or no charset). ${TO_UTF8}`,
    { details: { charset: charset.slice(0, 40) } },
  );
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than the server's limit of ${maxBytes} bytes: split it into smaller requests (e.g. fewer memories per batch), or ask the operator to raise the limit.`,
  );
}
