/**
 * An `Embedder` over any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, LM Studio):
 * plain `fetch`, no vendor SDK. Texts go in batches; each attempt has a timeout; network errors,
 * timeouts, 408, 429 and 5xx are retried with exponential backoff, other 4xx are not.
 */
import { z } from 'zod';
import { EngramError } from '../../core/errors.js';
import type { Embedder } from '../../core/ports/embedder.js';
import { backoffDelay, positiveOr, sleep } from '../../http-client/retry-backoff.js';
import { l2Normalise } from '../l2-normalize.js';

/** Options of {@link OpenAiEmbedder} and {@link createOpenAiEmbedder}. */
export interface OpenAiEmbedderOptions {
  /** Model name as the endpoint knows it, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  model: string;
  /** Base URL up to the API version, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  url: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /**
   * Vector length. When given it is also sent as `dimensions` (OpenAI's text-embedding-3 models
   * shorten their vectors to it); when not, {@link createOpenAiEmbedder} learns it from a first call.
   */
  dimensions?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Per attempt, milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Extra attempts after the first (default 3, at most 10). */
  retries?: number;
  /** First backoff, doubled per retry, with ±25 % jitter (default 500 ms). */
  backoffMs?: number;
  /** A `fetch` of your own (proxies, tests); default the global one. */
  fetch?: typeof fetch;
}

/** Retries are capped so a misconfiguration cannot retry forever. */
const MAX_RETRIES = 10;

/** A server's `Retry-After` is honoured up to this, so a hostile header cannot stall a write. */
const MAX_RETRY_AFTER_MS = 10_000;

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

/**
 * @example
 * ```ts
 * const embedder = new OpenAiEmbedder({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', dimensions: 768 });
 * const [vector] = await embedder.embed(['Alice likes the window seat']);
 * ```
 */
export class OpenAiEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  readonly #config: RequestConfig & { batchSize: number };
  readonly #requestDimensions: boolean;
  readonly #fetch: typeof fetch;

  /**
   * `dimensions` is required here ({@link createOpenAiEmbedder} finds it out when you do not know it);
   * `requestDimensions` false keeps it out of the requests, for a length that is the model's own.
   */
  constructor(options: OpenAiEmbedderOptions & { dimensions: number }, requestDimensions = true) {
    const config = resolveConfig(options);
    const dimension = options.dimensions;
    if (!Number.isInteger(dimension) || dimension < 1 || dimension > 65_536) {
      throw new EngramError(
        'INVALID_INPUT',
        `Invalid input: the embeddings dimension must be an integer from 1 to 65536, got ${String(dimension)} (e.g. ENGRAM_EMBEDDINGS_DIMENSIONS=1536), or leave it unset to take the model's own.`,
      );
    }
    this.#config = config;
    this.#requestDimensions = requestDimensions;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.dimension = dimension;
    this.name = `openai:${config.model}:${dimension}`;
  }

  /** Embeds texts in order, one request per `batchSize` texts; each result is L2-normalised. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      throw new EngramError('EMBEDDING_FAILED', 'The OpenAI embedder could not embed the input: pass an array of strings.');
    }
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.#config.batchSize) {
      const batch = texts.slice(start, start + this.#config.batchSize);
      for (const vector of await requestEmbeddings(this.#request, batch, this.dimension)) out.push(vector);
    }
    return out;
  }

  /** Nothing to release (fetch keeps no handle of ours); present so callers can close every embedder alike. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  readonly #request = (batch: readonly string[]): Promise<unknown> =>
    postWithRetries(this.#config, this.#fetch, batch, this.#requestDimensions ? this.dimension : undefined);
}

/**
 * An {@link OpenAiEmbedder} whose dimension is `options.dimensions`, or else the length of the
 * vector the endpoint returns for one probe text (the only way to learn it from the protocol).
 */
export async function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Promise<OpenAiEmbedder> {
  if (options.dimensions !== undefined) return new OpenAiEmbedder({ ...options, dimensions: options.dimensions });
  const probe = await postWithRetries(
    resolveConfig(options),
    options.fetch ?? globalThis.fetch.bind(globalThis),
    ['dimension probe'],
    undefined,
  );
  const [first] = parseEmbeddings(probe, 1);
  if (first === undefined || first.length === 0)
    throw embeddingError('the answer has an empty embedding, so its dimension is unknown', false);
  return new OpenAiEmbedder({ ...options, dimensions: first.length }, false);
}

function resolveConfig(options: OpenAiEmbedderOptions): RequestConfig & { batchSize: number } {
  if (typeof options?.url !== 'string' || !/^https?:\/\/\S+$/.test(options.url.trim())) {
    throw new EngramError(
      'INVALID_INPUT',
      'Invalid input: the embeddings URL must start with http:// or https:// (e.g. ENGRAM_EMBEDDINGS_URL=http://127.0.0.1:11434/v1).',
    );
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new EngramError('INVALID_INPUT', 'Invalid input: name the embeddings model (e.g. --embedder openai:text-embedding-3-small).');
  }
  return Object.freeze({
    url: options.url.trim().replace(/\/+$/, ''),
    model: options.model.trim(),
    ...(options.apiKey !== undefined && options.apiKey !== '' ? { apiKey: options.apiKey } : {}),
    batchSize: Math.floor(positiveOr(options.batchSize, 64)),
    timeoutMs: positiveOr(options.timeoutMs, 30_000),
    retries: Number.isNaN(options.retries) ? 3 : Math.min(MAX_RETRIES, Math.max(0, Math.floor(options.retries ?? 3))),
    backoffMs: Math.max(0, options.backoffMs ?? 500),
  });
}

async function requestEmbeddings(
  request: (batch: readonly string[]) => Promise<unknown>,
  batch: readonly string[],
  dimension: number,
): Promise<Float32Array[]> {
  const vectors = parseEmbeddings(await request(batch), batch.length);
  return vectors.map((vector) => {
    if (vector.length !== dimension) {
      throw embeddingError(
        `the endpoint returned vectors of ${vector.length} numbers, this embedder is set up for ${dimension}; use the model the store was built with, or set the dimensions to match`,
        false,
      );
    }
    return l2Normalise(vector);
  });
}

/** The vectors of a parsed answer in input order; every input must have exactly one. */
function parseEmbeddings(body: unknown, expected: number): Float32Array[] {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) throw embeddingError('the answer is not embeddings JSON ({"data": [{"index", "embedding"}]})', false);
  const byIndex = new Map(parsed.data.data.map((d) => [d.index, d.embedding]));
  if (parsed.data.data.length !== expected || byIndex.size !== expected) {
    throw embeddingError(`the answer has ${parsed.data.data.length} embeddings for ${expected} texts`, false);
  }
  const out: Float32Array[] = [];
  for (let i = 0; i < expected; i += 1) {
    const embedding = byIndex.get(i);
    if (embedding === undefined) throw embeddingError(`the answer has no embedding with index ${i}`, false);
    out.push(Float32Array.from(embedding));
  }
  return out;
}

interface RequestConfig {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
}

async function postWithRetries(
  config: RequestConfig,
  fetcher: typeof fetch,
  batch: readonly string[],
  dimensions: number | undefined,
): Promise<unknown> {
  // Endpoints reject an empty string (OpenAI answers 400), yet an empty memory is a valid input.
  const input = batch.map((text) => (text.trim() === '' ? ' ' : text));
  const body = JSON.stringify({ model: config.model, input, ...(dimensions !== undefined ? { dimensions } : {}) });
  let last: AttemptFailure | undefined;
  for (let attempt = 0; attempt <= config.retries; attempt += 1) {
    if (attempt > 0) await sleep(Math.max(backoffDelay(config.backoffMs, attempt), last?.retryAfterMs ?? 0));
    try {
      return await attemptOnce(config, fetcher, body);
    } catch (error) {
      if (!(error instanceof AttemptFailure)) throw error;
      last = error;
      if (!error.retryable) break;
    }
  }
  const tries = last !== undefined && last.retryable ? ` (gave up after ${config.retries + 1} attempts)` : '';
  throw embeddingError(`${last?.message ?? 'no attempt was made'}${tries}`, last?.retryable ?? false, last?.cause, last?.status);
}

async function attemptOnce(config: RequestConfig, fetcher: typeof fetch, body: string): Promise<unknown> {
  const timeout = AbortSignal.timeout(config.timeoutMs);
  let response: Response;
  try {
    response = await fetcher(`${config.url}/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(config.apiKey !== undefined ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body,
      signal: timeout,
    });
  } catch (cause) {
    throw new AttemptFailure(
      timeout.aborted
        ? `no answer within ${config.timeoutMs} ms`
        : `request to ${config.url}/embeddings failed (${(cause as Error).message})`,
      true,
      cause,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    throw new AttemptFailure(
      timeout.aborted ? `answer not complete within ${config.timeoutMs} ms` : 'the answer could not be read',
      true,
      cause,
    );
  }
  if (!response.ok) {
    const retryable = response.status === 429 || response.status === 408 || response.status >= 500;
    const failure = new AttemptFailure(
      `HTTP ${response.status}${text.length > 0 ? `: ${text.slice(0, 200)}` : ''}`,
      retryable,
      undefined,
      response.status,
    );
    failure.retryAfterMs = retryAfter(response.headers.get('retry-after'));
    throw failure;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new AttemptFailure(`the answer is not JSON (${JSON.stringify(text.slice(0, 80))})`, false, cause);
  }
}

class AttemptFailure extends Error {
  retryAfterMs = 0;
  constructor(
    message: string,
    readonly retryable: boolean,
    cause?: unknown,
    readonly status?: number,
  ) {
    super(message, cause !== undefined ? { cause } : undefined);
  }
}

function retryAfter(header: string | null): number {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 0;
}

function embeddingError(reason: string, retryable: boolean, cause?: unknown, status?: number): EngramError {
  return new EngramError(
    'EMBEDDING_FAILED',
    `The embeddings endpoint failed: ${reason}. Check ENGRAM_EMBEDDINGS_URL, the model name and ENGRAM_EMBEDDINGS_API_KEY.`,
    {
      details: { kind: 'embeddings', retryable, ...(status !== undefined ? { status } : {}) },
      ...(cause !== undefined ? { cause } : {}),
    },
  );
}
