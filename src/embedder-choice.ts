/**
 * Names of the built-in embedders as users write them (`--embedder`, `ENGRAM_EMBEDDER`,
 * `Engram.open({ embedder })`) and as stores record them, turned into one parsed form.
 */
import { z } from 'zod';
import { EngramError } from './core/errors.js';
import type { Embedder } from './core/ports/embedder.js';
import {
  blendEmbedderName,
  PREFERRED_ONNX_MODELS,
  findOnnxBlend,
  findOnnxModel,
  ONNX_BLENDS,
  ONNX_MODELS,
  onnxEmbedderName,
} from './embeddings/onnx/onnx-model-catalogue.js';

/** A catalogue model name such as `bge-small-en-v1.5`. */
export type OnnxModelName =
  'bge-small-en-v1.5' | 'all-minilm-l6-v2' | 'e5-small-v2' | 'bge-small-zh-v1.5' | 'blend-small-en' | 'blend-e5-minilm';

/**
 * Which built-in embedder to use, or an instance of your own: `use` (alias `use-lite`), `static`,
 * `hash`, an installed ONNX model (`bge-small-en-v1.5`, also `onnx:bge-small-en-v1.5`) or blend of them (`blend-e5-minilm`,
 * `blend-small-en`), `openai:<model>`, or `auto` (the default blend-e5-minilm when its files are in the cache, else
 * bge-small-en-v1.5 when its are, else USE-lite).
 */
export type EmbedderChoice =
  'use' | 'use-lite' | 'static' | 'hash' | `hash:${number}` | 'auto' | OnnxModelName | `onnx:${string}` | `openai:${string}` | Embedder;

/** A built-in embedder name, parsed. */
export type ParsedEmbedderChoice =
  | { readonly kind: 'use' | 'static' | 'hash' | 'auto' }
  | { readonly kind: 'hash'; readonly dimension: number }
  | { readonly kind: 'onnx'; readonly model: string }
  | { readonly kind: 'openai'; readonly model: string };

const nameSchema = z.string().trim().min(1).max(200);

function unknownChoice(text: string): EngramError {
  return new EngramError(
    'INVALID_INPUT',
    `Unknown embedder "${text.slice(0, 80)}": use one of use, static, hash, auto, ${[...ONNX_MODELS, ...ONNX_BLENDS].map((m) => m.name).join(', ')} (also written onnx:<model>), or openai:<model>.`,
  );
}

/**
 * Parses an embedder name as a user writes it. Throws `EngramError('INVALID_INPUT')` for anything else.
 *
 * @example
 * ```ts
 * parseEmbedderChoice('onnx:e5-small-v2'); // { kind: 'onnx', model: 'e5-small-v2' }
 * parseEmbedderChoice('use-lite'); // { kind: 'use' }
 * ```
 */
export function parseEmbedderChoice(text: unknown): ParsedEmbedderChoice {
  const parsed = nameSchema.safeParse(text);
  if (!parsed.success) throw unknownChoice(String(text));
  const name = parsed.data.toLowerCase();
  if (name === 'use' || name === 'use-lite') return { kind: 'use' };
  if (name === 'static' || name === 'hash' || name === 'auto') return { kind: name };
  const hash = /^hash:(\d{1,5})$/.exec(name);
  if (hash !== null) return hashChoice(Number(hash[1]), parsed.data);
  if (name.startsWith('openai:')) {
    const model = parsed.data.trim().slice('openai:'.length);
    if (model === '') throw unknownChoice(parsed.data);
    return { kind: 'openai', model };
  }
  const model = name.startsWith('onnx:') ? name.slice('onnx:'.length) : name;
  if (findOnnxModel(model) !== undefined || findOnnxBlend(model) !== undefined) return { kind: 'onnx', model };
  throw unknownChoice(parsed.data);
}

/** `hash:<dimension>`: the hash embedder with another vector length (8 to 65,536), for tests. */
function hashChoice(dimension: number, text: string): ParsedEmbedderChoice {
  if (!(dimension >= 8 && dimension <= 65_536)) throw unknownChoice(text);
  return dimension === 256 ? { kind: 'hash' } : { kind: 'hash', dimension };
}

/**
 * The embedder a store's recorded name asks for, so the store reopens with its own model; undefined
 * for a name no built-in embedder makes (then the caller must pass an instance). An ONNX name whose
 * model hash is not the catalogue's is refused rather than reopened with other vectors.
 *
 * @example
 * ```ts
 * choiceForRecordedEmbedder('onnx:bge-small-en-v1.5:384:6c9c6101'); // { kind: 'onnx', model: 'bge-small-en-v1.5' }
 * ```
 */
export function choiceForRecordedEmbedder(recorded: string | null): ParsedEmbedderChoice | undefined {
  if (recorded === null) return undefined;
  if (recorded.startsWith('use-lite')) return { kind: 'use' };
  if (recorded.startsWith('static-')) return { kind: 'static' };
  if (recorded.startsWith('hash')) {
    const dimension = Number(/^hash:(\d+)$/.exec(recorded)?.[1] ?? 256);
    return dimension === 256 ? { kind: 'hash' } : { kind: 'hash', dimension };
  }
  if (recorded.startsWith('onnx:')) {
    const model = recorded.split(':')[1] ?? '';
    const blend = findOnnxBlend(model);
    if (blend !== undefined) {
      if (blendEmbedderName(blend) !== recorded) throw recordedMismatch(recorded, blendEmbedderName(blend));
      return { kind: 'onnx', model: blend.name };
    }
    const spec = findOnnxModel(model);
    if (spec === undefined || onnxEmbedderName(spec) !== recorded)
      throw recordedMismatch(recorded, spec === undefined ? undefined : onnxEmbedderName(spec));
    return { kind: 'onnx', model: spec.name };
  }
  // The OpenAI adapter records `openai:<model>:<dim>`; its model id may itself contain colons.
  if (recorded.startsWith('openai:')) return { kind: 'openai', model: recorded.slice('openai:'.length).replace(/:\d+$/, '') };
  return undefined;
}

function recordedMismatch(recorded: string, ours: string | undefined): EngramError {
  return new EngramError(
    'EMBEDDING_MODEL_MISMATCH',
    `This database was created with the embedding model "${recorded}", which this version of Engram does not have${ours !== undefined ? ` (it has ${ours})` : ''}. Open it with the Engram version that created it, or re-embed into a new database.`,
    { details: { recorded } },
  );
}

/**
 * The best local embedder this machine has: the first of {@link PREFERRED_ONNX_MODELS} (the default
 * blend, then bge-small-en-v1.5) whose files are in the cache, else USE-lite. New stores (`embedder:
 * 'auto'`, the default of `Engram.open` and the CLI) take it.
 *
 * @example
 * ```ts
 * await preferredLocalEmbedder('/home/ann/.cache/engram'); // { kind: 'onnx', model: 'blend-e5-minilm' }
 * ```
 */
export async function preferredLocalEmbedder(cacheDir: string): Promise<ParsedEmbedderChoice> {
  const { hasModelFiles } = await import('./embeddings/onnx/models/installed-models.js');
  const model = PREFERRED_ONNX_MODELS.find((name) => hasModelFiles(cacheDir, name));
  return model !== undefined ? { kind: 'onnx', model } : { kind: 'use' };
}

/**
 * The built-in embedder that makes vectors of the recorded model `recorded` (a dump's or another
 * store's) when this machine has it: an ONNX model or blend whose files are in `cacheDir`, USE-lite, the
 * static table (distilled from USE-lite, which ships with the package) or the hash embedder; undefined
 * otherwise (an OpenAI-compatible model needs an endpoint, an unknown name has no maker).
 *
 * @example
 * ```ts
 * await installedChoiceFor('use-lite:512', '/home/ann/.cache/engram'); // { kind: 'use' }
 * ```
 */
export async function installedChoiceFor(recorded: string, cacheDir: string): Promise<ParsedEmbedderChoice | undefined> {
  let choice: ParsedEmbedderChoice | undefined;
  try {
    choice = choiceForRecordedEmbedder(recorded);
  } catch {
    return undefined;
  }
  if (choice === undefined || choice.kind === 'openai' || choice.kind === 'auto') return undefined;
  if (choice.kind !== 'onnx') return choice;
  const { hasModelFiles } = await import('./embeddings/onnx/models/installed-models.js');
  return hasModelFiles(cacheDir, choice.model) ? choice : undefined;
}
