/**
 * An `Llm` over any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp's
 * server, LM Studio): plain `fetch`, no vendor SDK. Each attempt has a timeout; network errors,
 * timeouts, 429 and 5xx are retried with exponential backoff and jitter; other 4xx are not.
 */
import { EngramError } from '../core/errors.js';
import type { Llm, LlmCompleteOptions, LlmMessage } from '../core/ports/llm.js';
import { backoffDelay, positiveOr, sleep } from '../http-client/retry-backoff.js';

/** Configuration of an OpenAI-compatible endpoint. */
export interface OpenAiCompatibleLlmConfig {
  /** Base URL up to the API version, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** Per attempt, milliseconds (default 20 000). */
  timeoutMs?: number;
  /** Extra attempts after the first (default 2). */
  retries?: number;
  /** First backoff, doubled per retry, with ±25 % jitter (default 250 ms). */
  backoffMs?: number;
  /** Ask for `response_format: {type: "json_object"}` when JSON is wanted (default true). */
  jsonMode?: boolean;
  /** A `fetch` of your own (proxies, tests); default the global one. */
  fetch?: typeof fetch;
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown } }[];
}

/**
 * @example
 * ```ts
 * import { OpenAiCompatibleLlm } from 'engram/llm';
 * const llm = new OpenAiCompatibleLlm({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
 * const text = await llm.complete([{ role: 'user', content: 'Say hi' }]);
 * ```
 */
export class OpenAiCompatibleLlm implements Llm {
  readonly name: string;
  readonly #config: Readonly<Required<Omit<OpenAiCompatibleLlmConfig, 'apiKey' | 'fetch'>> & Pick<OpenAiCompatibleLlmConfig, 'apiKey'>>;
  readonly #fetch: typeof fetch;

  constructor(config: OpenAiCompatibleLlmConfig) {
    if (typeof config?.baseUrl !== 'string' || !/^https?:\/\//.test(config.baseUrl)) {
      throw new EngramError(
        'INVALID_INPUT',
        'Invalid input: the LLM base URL must start with http:// or https:// (e.g. ENGRAM_LLM_BASE_URL=http://127.0.0.1:11434/v1).',
      );
    }
    if (typeof config.model !== 'string' || config.model.trim() === '') {
      throw new EngramError('INVALID_INPUT', 'Invalid input: name the LLM model (e.g. ENGRAM_LLM_MODEL=gpt-4o-mini).');
    }
    this.#config = Object.freeze({
      baseUrl: config.baseUrl.replace(/\/+$/, ''),
      model: config.model,
      ...(config.apiKey !== undefined && config.apiKey !== '' ? { apiKey: config.apiKey } : {}),
      timeoutMs: positiveOr(config.timeoutMs, 20_000),
      retries: Math.max(0, Math.floor(config.retries ?? 2)),
      backoffMs: Math.max(0, config.backoffMs ?? 250),
      jsonMode: config.jsonMode ?? true,
    });
    this.#fetch = config.fetch ?? globalThis.fetch.bind(globalThis);
    this.name = `openai-compatible:${this.#config.model}`;
  }

  async complete(messages: readonly LlmMessage[], options: LlmCompleteOptions = {}): Promise<string> {
    const body = JSON.stringify({
      model: this.#config.model,
      messages,
      temperature: options.temperature ?? 0,
      ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
      ...(options.json === true && this.#config.jsonMode ? { response_format: { type: 'json_object' } } : {}),
    });
    let lastError: EngramError | undefined;
    for (let attempt = 0; attempt <= this.#config.retries; attempt += 1) {
      if (attempt > 0) await sleep(backoffDelay(this.#config.backoffMs, attempt), options.signal);
      try {
        return await this.#attempt(body, options.signal);
      } catch (error) {
        const failure = error as AttemptError;
        lastError = failure.engram;
        if (!failure.retryable || options.signal?.aborted === true) break;
      }
    }
    throw lastError ?? llmError('no attempt was made', false);
  }

  async #attempt(body: string, signal: AbortSignal | undefined): Promise<string> {
    const timeout = AbortSignal.timeout(this.#config.timeoutMs);
    const combined = signal !== undefined ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await this.#fetch(`${this.#config.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.#config.apiKey !== undefined ? { authorization: `Bearer ${this.#config.apiKey}` } : {}),
        },
        body,
        signal: combined,
      });
    } catch (error) {
      const timedOut = timeout.aborted;
      throw attemptError(
        timedOut ? `no answer within ${this.#config.timeoutMs} ms` : `request failed (${(error as Error).message})`,
        signal?.aborted !== true,
        error,
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw attemptError(
        timeout.aborted ? `answer not complete within ${this.#config.timeoutMs} ms` : 'the answer could not be read',
        true,
        error,
      );
    }
    if (!response.ok) {
      const retryable = response.status === 429 || response.status === 408 || response.status >= 500;
      throw attemptError(`HTTP ${response.status}${text.length > 0 ? `: ${text.slice(0, 200)}` : ''}`, retryable);
    }
    let parsed: ChatCompletion;
    try {
      parsed = JSON.parse(text) as ChatCompletion;
    } catch (error) {
      throw attemptError('the endpoint did not answer with chat-completions JSON', false, error);
    }
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw attemptError('the answer has no choices[0].message.content', false);
    return content;
  }
}

interface AttemptError extends Error {
  engram: EngramError;
  retryable: boolean;
}

function attemptError(reason: string, retryable: boolean, cause?: unknown): AttemptError {
  const error = new Error(reason) as AttemptError;
  error.engram = llmError(reason, retryable, cause);
  error.retryable = retryable;
  return error;
}

function llmError(reason: string, retryable: boolean, cause?: unknown): EngramError {
  return new EngramError(
    'INTERNAL',
    `The LLM endpoint failed: ${reason}. Engram falls back to its deterministic path; check ENGRAM_LLM_BASE_URL, the model name and the key.`,
    {
      details: { kind: 'llm', retryable },
      ...(cause !== undefined ? { cause } : {}),
    },
  );
}
