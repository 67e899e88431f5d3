/**
 * The `openai:<model>` embedder named on the command line or in `Engram.open`, configured from the
 * environment:
 *   ENGRAM_EMBEDDINGS_URL         OpenAI-compatible base URL (default https://api.openai.com/v1;
 *                                 Ollama http://127.0.0.1:11434/v1, LM Studio http://127.0.0.1:1234/v1)
 *   ENGRAM_EMBEDDINGS_API_KEY     sent as a bearer token when set
 *   ENGRAM_EMBEDDINGS_DIMENSIONS  vector length to ask for (text-embedding-3 models); default the model's own
 */
import { EngramError } from '../../core/errors.js';
import { createOpenAiEmbedder, type OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.js';

/** Where `openai:<model>` goes when ENGRAM_EMBEDDINGS_URL is not set. */
export const DEFAULT_EMBEDDINGS_URL = 'https://api.openai.com/v1';

/** The model of an `openai:<model>` embedder name, or null for another name. Model names may hold colons (Ollama tags). */
export function openAiModelOf(name: string): string | null {
  return name.startsWith('openai:') ? name.slice('openai:'.length) : null;
}

/**
 * Creates the embedder of `openai:<model>` from the environment; `overrides` win over it.
 *
 * @example
 * ```ts
 * const embedder = await openAiEmbedderFromEnv('openai:nomic-embed-text', { ENGRAM_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1' });
 * embedder.name; // 'openai:nomic-embed-text:768'
 * ```
 */
export async function openAiEmbedderFromEnv(
  name: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<OpenAiEmbedderOptions> = {},
): Promise<OpenAiEmbedder> {
  const model = openAiModelOf(name);
  if (model === null || model.trim() === '') {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid input: ${JSON.stringify(name)} is not an OpenAI-compatible embedder name; write openai:<model>, e.g. openai:text-embedding-3-small.`,
    );
  }
  const rawDimensions = env.ENGRAM_EMBEDDINGS_DIMENSIONS?.trim();
  const dimensions = rawDimensions === undefined || rawDimensions === '' ? undefined : Number(rawDimensions);
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0)) {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid input: ENGRAM_EMBEDDINGS_DIMENSIONS must be a positive integer, got ${JSON.stringify(rawDimensions)}; unset it to take the model's own length.`,
    );
  }
  const apiKey = env.ENGRAM_EMBEDDINGS_API_KEY?.trim();
  return createOpenAiEmbedder({
    model,
    url: env.ENGRAM_EMBEDDINGS_URL?.trim() || DEFAULT_EMBEDDINGS_URL,
    ...(apiKey ? { apiKey } : {}),
    ...(dimensions !== undefined ? { dimensions } : {}),
    ...overrides,
  });
}
