/**
 * The sentence-embedding models Engram knows how to fetch, verify and run: where each comes from,
 * the sha256 of its files, and how it wants to be run (pooling, prefixes, maximum length).
 */
import { createHash } from 'node:crypto';
import type { CosineScale } from '../../core/ports/embedder.js';

/** How token vectors become one sentence vector. */
export type OnnxPooling = 'cls' | 'mean';

/** One place a model's files can be fetched from, tried in the order listed. */
export type OnnxModelSource =
  | { readonly kind: 'hub'; readonly repo: string; readonly revision: string; readonly onnxFile: string; readonly tokenizerFile: string }
  | { readonly kind: 'maven'; readonly artifact: string; readonly onnxEntry: string; readonly tokenizerEntry: string };

/** A model of the catalogue. */
export interface OnnxModelSpec {
  /** Catalogue name, also the cache folder name: `bge-small-en-v1.5`. */
  readonly name: string;
  readonly dimension: number;
  readonly pooling: OnnxPooling;
  /** Tokens per text, special tokens included; longer texts are cut. */
  readonly maxTokens: number;
  /** Prepended to queries (recall), e.g. e5's `query: `. Empty when the model wants none. */
  readonly queryPrefix: string;
  /** Prepended to stored texts, e.g. e5's `passage: `. */
  readonly passagePrefix: string;
  /** sha256 (hex) of `model.onnx` and `tokenizer.json`; a file with another hash is refused. */
  readonly sha256: { readonly onnx: string; readonly tokenizer: string };
  readonly sources: readonly OnnxModelSource[];
  readonly licence: string;
  /** Approximate download size in MB (the .onnx file). */
  readonly sizeMb: number;
  /** Median cosines of unrelated and of answering pairs on the relevance corpus (English models only). */
  readonly cosineScale?: CosineScale;
}

/** bge's instruction for short queries against passages; off by default until measured on our recall bench. */
export const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

const MAVEN = 'dev.langchain4j:langchain4j-embeddings';

/** The catalogue, default model first. */
export const ONNX_MODELS: readonly OnnxModelSpec[] = Object.freeze([
  {
    name: 'bge-small-en-v1.5',
    dimension: 384,
    pooling: 'cls',
    maxTokens: 512,
    queryPrefix: '',
    passagePrefix: '',
    sha256: {
      onnx: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
      tokenizer: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
    },
    sources: [
      {
        kind: 'hub',
        repo: 'Xenova/bge-small-en-v1.5',
        revision: 'main',
        onnxFile: 'onnx/model_quantized.onnx',
        tokenizerFile: 'tokenizer.json',
      },
      {
        kind: 'maven',
        artifact: `${MAVEN}-bge-small-en-v15-q:0.36.2`,
        onnxEntry: 'bge-small-en-v1.5-q.onnx',
        tokenizerEntry: 'bge-small-en-v1.5-q-tokenizer.json',
      },
    ],
    licence: 'MIT',
    sizeMb: 34,
    cosineScale: { unrelated: 0.392, related: 0.674 },
  },
  {
    name: 'all-minilm-l6-v2',
    dimension: 384,
    pooling: 'mean',
    // The model was trained on 128 tokens; the tokenizer file says so too.
    maxTokens: 128,
    queryPrefix: '',
    passagePrefix: '',
    sha256: {
      onnx: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
      tokenizer: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0',
    },
    sources: [
      {
        kind: 'hub',
        repo: 'Xenova/all-MiniLM-L6-v2',
        revision: 'main',
        onnxFile: 'onnx/model_quantized.onnx',
        tokenizerFile: 'tokenizer.json',
      },
      {
        kind: 'maven',
        artifact: `${MAVEN}-all-minilm-l6-v2-q:1.19.0-beta29`,
        onnxEntry: 'all-minilm-l6-v2-q.onnx',
        tokenizerEntry: 'all-minilm-l6-v2-q-tokenizer.json',
      },
    ],
    licence: 'Apache-2.0',
    sizeMb: 23,
    cosineScale: { unrelated: 0.056, related: 0.535 },
  },
  {
    name: 'e5-small-v2',
    dimension: 384,
    pooling: 'mean',
    maxTokens: 512,
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    sha256: {
      onnx: '7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded',
      tokenizer: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
    },
    sources: [
      { kind: 'hub', repo: 'Xenova/e5-small-v2', revision: 'main', onnxFile: 'onnx/model_quantized.onnx', tokenizerFile: 'tokenizer.json' },
      {
        kind: 'maven',
        artifact: `${MAVEN}-e5-small-v2-q:0.36.2`,
        onnxEntry: 'e5-small-v2-q.onnx',
        tokenizerEntry: 'e5-small-v2-q-tokenizer.json',
      },
    ],
    licence: 'MIT',
    sizeMb: 34,
    cosineScale: { unrelated: 0.727, related: 0.842 },
  },
  {
    name: 'bge-small-zh-v1.5',
    dimension: 512,
    pooling: 'cls',
    maxTokens: 512,
    queryPrefix: '',
    passagePrefix: '',
    sha256: {
      onnx: '15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc',
      tokenizer: '48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26',
    },
    sources: [
      {
        kind: 'hub',
        repo: 'Xenova/bge-small-zh-v1.5',
        revision: 'main',
        onnxFile: 'onnx/model_quantized.onnx',
        tokenizerFile: 'tokenizer.json',
      },
      {
        kind: 'maven',
        artifact: `${MAVEN}-bge-small-zh-v15-q:0.36.2`,
        onnxEntry: 'bge-small-zh-v1.5-q.onnx',
        tokenizerEntry: 'bge-small-zh-v1.5-q-tokenizer.json',
      },
    ],
    licence: 'MIT',
    sizeMb: 24,
  },
]);

/**
 * The model a new store takes (`embedder: 'auto'`) and `engram models pull` fetches when given no name:
 * the blend of e5-small-v2 and all-MiniLM-L6-v2 (see {@link ONNX_BLENDS}).
 */
export const DEFAULT_ONNX_MODEL = 'blend-e5-minilm';

/**
 * What `embedder: 'auto'` takes, first installed first: the default, then bge-small-en-v1.5 (the default
 * before it, which a machine may hold without the default's members), else USE-lite.
 */
export const PREFERRED_ONNX_MODELS: readonly string[] = Object.freeze([DEFAULT_ONNX_MODEL, 'bge-small-en-v1.5']);

/** One model of a blend and its share of the blended cosine. */
export interface OnnxBlendMember {
  readonly model: string;
  readonly weight: number;
}

/**
 * Several catalogue models run side by side on every text, their unit vectors scaled by √(weight / Σ
 * weights) and concatenated: the cosine of two blended vectors is the weighted mean of the members'
 * cosines. Small bi-encoders err on different texts, so the mean ranks better than any one of them.
 */
export interface OnnxBlendSpec {
  /** Blend name, written like a model name: `blend-small-en`. */
  readonly name: string;
  readonly members: readonly OnnxBlendMember[];
  /** One line for `engram models list`. */
  readonly description: string;
}

/**
 * The blends. e5-small-v2 is the best single model on conversations, all-MiniLM-L6-v2 the best on short
 * paraphrases (the relevance set) and the cheapest. `blend-e5-minilm` (the default) weights e5 three
 * times MiniLM; `blend-small-en` adds bge-small-en-v1.5 (e5 ×4, the others ×1) for a little more on the
 * relevance set, at the cost of a third model on every text. Both sets of weights were chosen on dense ranking alone
 * (no engine) of LoCoMo conversations 1-5, the two hand-written conversation sets and the relevance set.
 */
export const ONNX_BLENDS: readonly OnnxBlendSpec[] = Object.freeze([
  {
    name: 'blend-small-en',
    members: [
      { model: 'bge-small-en-v1.5', weight: 1 },
      { model: 'e5-small-v2', weight: 4 },
      { model: 'all-minilm-l6-v2', weight: 1 },
    ],
    description: 'bge-small-en-v1.5 ×1 + e5-small-v2 ×4 + all-MiniLM-L6-v2 ×1 (English)',
  },
  {
    name: 'blend-e5-minilm',
    members: [
      { model: 'e5-small-v2', weight: 3 },
      { model: 'all-minilm-l6-v2', weight: 1 },
    ],
    description: 'e5-small-v2 ×3 + all-MiniLM-L6-v2 ×1 (English; the default)',
  },
]);

/**
 * The blend of that name (`onnx:` prefix allowed), or undefined.
 *
 * @example
 * ```ts
 * findOnnxBlend('blend-small-en')?.members.length; // 3
 * ```
 */
export function findOnnxBlend(name: string): OnnxBlendSpec | undefined {
  const bare = name.toLowerCase().replace(/^onnx:/, '');
  return ONNX_BLENDS.find((blend) => blend.name === bare);
}

/**
 * The catalogue models a model or blend name needs on disk: the model itself, or the blend's members;
 * empty for an unknown name.
 *
 * @example
 * ```ts
 * modelsNeededBy('blend-small-en'); // ['bge-small-en-v1.5', 'e5-small-v2', 'all-minilm-l6-v2']
 * ```
 */
export function modelsNeededBy(name: string): string[] {
  const blend = findOnnxBlend(name);
  if (blend !== undefined) return blend.members.map((m) => m.model);
  const spec = findOnnxModel(name.replace(/^onnx:/i, ''));
  return spec === undefined ? [] : [spec.name];
}

/**
 * The identity a store records for a blend: `onnx:<name>:<dim>:<sha8>`, the sha8 being the first 8 hex
 * of the sha256 of the members' `.onnx` hashes and weights, so another member file or weight is another model.
 *
 * @example
 * ```ts
 * blendEmbedderName(findOnnxBlend('blend-small-en')!); // 'onnx:blend-small-en:1152:…'
 * ```
 */
export function blendEmbedderName(blend: OnnxBlendSpec): string {
  const specs = blend.members.map((m) => findOnnxModel(m.model) as OnnxModelSpec);
  const dimension = specs.reduce((sum, spec) => sum + spec.dimension, 0);
  const identity = blend.members.map((m, i) => `${(specs[i] as OnnxModelSpec).sha256.onnx}*${m.weight}`).join('+');
  return `onnx:${blend.name}:${dimension}:${createHash('sha256').update(identity).digest('hex').slice(0, 8)}`;
}

/**
 * The catalogue entry of a model name, or undefined.
 *
 * @example
 * ```ts
 * findOnnxModel('e5-small-v2')?.queryPrefix; // 'query: '
 * ```
 */
export function findOnnxModel(name: string): OnnxModelSpec | undefined {
  return ONNX_MODELS.find((model) => model.name === name.toLowerCase());
}

/**
 * The identity a store records for a model: `onnx:<name>:<dim>:<first 8 hex of the .onnx sha256>`.
 *
 * @example
 * ```ts
 * onnxEmbedderName(findOnnxModel('bge-small-en-v1.5')!); // 'onnx:bge-small-en-v1.5:384:6c9c6101'
 * ```
 */
export function onnxEmbedderName(spec: Pick<OnnxModelSpec, 'name' | 'dimension' | 'sha256'>): string {
  return `onnx:${spec.name}:${spec.dimension}:${spec.sha256.onnx.slice(0, 8)}`;
}
