/**
 * Engram as a LangChain.js retriever: `invoke(query)` runs `Engram.recall` over fixed scopes and returns
 * one `Document` per hit, best first, with the memory's id, scope, layer, relevance and the explanation
 * of its rank (`why`) in the metadata.
 */
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { z } from 'zod';
import type { Engram, HitExplanation, Layer, Scope } from '../../index.js';
import { countOption, engramOption, optionsObject, parseAdapterOptions, scopesOption } from '../adapter-options.js';

/** The metadata of each document {@link EngramRetriever} returns. */
export interface EngramDocumentMetadata {
  id: string;
  scope: string;
  layer: Layer;
  /** How strongly the memory matches the query, 0..1. */
  relevance: number;
  /** The rank's explanation: each channel's contribution, recency, importance, activation. */
  why: HitExplanation;
  tags: string[];
  occurredAt: string | null;
  validFrom: string;
  [key: string]: unknown;
}

/** Options of {@link EngramRetriever}. */
export interface EngramRetrieverInput extends BaseRetrieverInput {
  /** The open store to read. */
  engram: Engram;
  /** The scopes recall may read, e.g. the user's scope and the team's. */
  scopes: readonly Scope[];
  /** Most documents per query (default 8). */
  k?: number;
  /** Only these layers (default: all). */
  layers?: readonly Layer[];
  /** Drop hits whose relevance is below this, 0..1 (default 0: keep every hit). */
  minRelevance?: number;
}

const retrieverOptionsSchema = optionsObject(
  {
    engram: engramOption,
    scopes: scopesOption('recall may read'),
    k: countOption(1),
    layers: z.array(z.string(), { error: "must be a list of layers, e.g. ['semantic', 'procedural']" }).min(1).optional(),
    minRelevance: z.number({ error: 'must be a number, the relevance floor (0..1)' }).optional(),
    // BaseRetrieverInput: LangChain checks these itself
    callbacks: z.unknown().optional(),
    tags: z.unknown().optional(),
    metadata: z.unknown().optional(),
    verbose: z.unknown().optional(),
  },
  "{ engram, scopes: ['acme/users/alice'] }",
);

/**
 * A retriever over Engram's recall. Its options are checked here: a missing or mistyped one throws
 * `EngramError` `INVALID_INPUT` naming the field.
 *
 * @example
 * ```ts
 * import { EngramRetriever } from 'engram/langchain';
 *
 * const retriever = new EngramRetriever({ engram, scopes: ['acme/users/alice'], k: 5 });
 * const docs = await retriever.invoke('where does Alice like to sit?');
 * console.log(docs[0]?.pageContent, docs[0]?.metadata.relevance);
 * ```
 */
export class EngramRetriever extends BaseRetriever<EngramDocumentMetadata> {
  static override lc_name(): string {
    return 'EngramRetriever';
  }

  override lc_namespace = ['engram', 'retrievers'];

  readonly #engram: Engram;
  readonly #scopes: Scope[];
  readonly #k: number;
  readonly #layers: Layer[] | undefined;
  readonly #minRelevance: number;

  constructor(fields: EngramRetrieverInput) {
    parseAdapterOptions(retrieverOptionsSchema, fields, 'EngramRetriever');
    const { engram, scopes, k, layers, minRelevance, ...base } = fields;
    super(base);
    this.#engram = engram;
    this.#scopes = [...scopes];
    this.#k = k ?? 8;
    this.#layers = layers !== undefined ? [...layers] : undefined;
    this.#minRelevance = minRelevance ?? 0;
  }

  override async _getRelevantDocuments(
    query: string,
    _runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<EngramDocumentMetadata>[]> {
    const { hits } = await this.#engram.recall(query, {
      scopes: this.#scopes,
      k: this.#k,
      ...(this.#layers !== undefined ? { layers: this.#layers } : {}),
    });
    return hits
      .filter((hit) => hit.relevance >= this.#minRelevance)
      .map(
        (hit) =>
          new Document<EngramDocumentMetadata>({
            id: hit.id,
            pageContent: hit.content,
            metadata: {
              id: hit.id,
              scope: hit.scope,
              layer: hit.layer,
              relevance: hit.relevance,
              why: hit.why,
              tags: hit.tags,
              occurredAt: hit.occurredAt,
              validFrom: hit.validFrom,
            },
          }),
      );
  }
}
