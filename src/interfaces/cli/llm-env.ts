/**
 * The optional LLM from the environment: off unless ENGRAM_LLM_BASE_URL is set.
 *
 *   ENGRAM_LLM_BASE_URL   OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (Ollama)
 *   ENGRAM_LLM_MODEL      model name (required with a base URL)
 *   ENGRAM_LLM_API_KEY    bearer key, if the endpoint wants one
 *   ENGRAM_LLM_TIMEOUT_MS per attempt (default 20000)
 *   ENGRAM_LLM_RETRIES    extra attempts on timeouts, 429 and 5xx (default 2)
 *   ENGRAM_LLM_USES       comma list of uses to switch on (default all): importance,supersession,extraction,reflection
 */
import { EngramError } from '../../core/errors.js';
import { LLM_USES, type LlmUses } from '../../core/llm/llm-assist.js';
import type { LlmEndpointOptions } from '../../engram.js';

/** The `llm` option of `Engram.open` described by `env`, or undefined when no LLM is configured. */
export function llmFromEnv(env: NodeJS.ProcessEnv): LlmEndpointOptions | undefined {
  const baseUrl = env.ENGRAM_LLM_BASE_URL?.trim();
  if (baseUrl === undefined || baseUrl === '') return undefined;
  const model = env.ENGRAM_LLM_MODEL?.trim();
  if (model === undefined || model === '') {
    throw new EngramError(
      'INVALID_INPUT',
      'Invalid input: ENGRAM_LLM_BASE_URL is set but ENGRAM_LLM_MODEL is not: name the model (e.g. ENGRAM_LLM_MODEL=llama3.1), or unset the base URL to run without an LLM.',
    );
  }
  const options: LlmEndpointOptions = { baseUrl, model };
  if (env.ENGRAM_LLM_API_KEY !== undefined && env.ENGRAM_LLM_API_KEY !== '') options.apiKey = env.ENGRAM_LLM_API_KEY;
  const timeout = integer(env.ENGRAM_LLM_TIMEOUT_MS, 'ENGRAM_LLM_TIMEOUT_MS', 1);
  if (timeout !== undefined) options.timeoutMs = timeout;
  const retries = integer(env.ENGRAM_LLM_RETRIES, 'ENGRAM_LLM_RETRIES', 0);
  if (retries !== undefined) options.retries = retries;
  const uses = env.ENGRAM_LLM_USES?.trim();
  if (uses !== undefined && uses !== '') {
    const named = uses
      .split(',')
      .map((u) => u.trim().toLowerCase())
      .filter((u) => u.length > 0 && u !== 'none');
    const unknown = named.filter((u) => !(LLM_USES as readonly string[]).includes(u));
    if (unknown.length > 0) {
      throw new EngramError(
        'INVALID_INPUT',
        `Invalid input: ENGRAM_LLM_USES names unknown use(s) ${unknown.join(', ')}: use a comma list of ${LLM_USES.join(', ')} (or "none").`,
      );
    }
    options.uses = Object.fromEntries(LLM_USES.map((u) => [u, named.includes(u)])) as unknown as LlmUses;
  }
  return options;
}

function integer(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new EngramError('INVALID_INPUT', `Invalid input: ${name} must be an integer ≥ ${min}, got "${value.slice(0, 20)}".`);
  return n;
}
