/** The input of `reembed`, validated at every interface (library, CLI). */
import { z } from 'zod';

/** Records embedded per batch when not told otherwise. */
export const DEFAULT_REEMBED_BATCH = 64;

const isEmbedderInstance = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { embed?: unknown }).embed === 'function' &&
  typeof (value as { name?: unknown }).name === 'string';

export const reembedOptionsSchema = z
  .object({
    embedder: z.union([z.string().trim().min(1).max(200), z.custom<object>(isEmbedderInstance, 'an Embedder instance')], {
      error: 'embedder must be a model name (e.g. "bge-small-en-v1.5") or an Embedder instance',
    }),
    batchSize: z.number().int().min(1).max(10_000).optional(),
    onProgress: z.custom<(progress: unknown) => void>((value) => typeof value === 'function', 'a function').optional(),
    signal: z
      .custom<AbortSignal>((value) => typeof AbortSignal !== 'undefined' && value instanceof AbortSignal, 'an AbortSignal')
      .optional(),
  })
  .strict();
