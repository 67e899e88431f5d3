// Orama (@orama/orama), the in-memory search engine, over the same model's embeddings (fetched by the
// benchmark from the local OpenAI-compatible server, since Orama takes vectors rather than calling a
// model itself). One Orama database per conversation; documents are {content, dia, embedding}.
//   orama         hybrid mode: Orama's BM25 full-text search fused with its vector search (default weights)
//   orama-vector  vector mode alone (on these sets it ranks better than Orama's hybrid, so both are shown)
// Defaults except `similarity`: Orama drops vector hits below cosine 0.8 by default, which with this model
// leaves most questions without vector hits, so it is set to 0 and the top 10 is taken.
import { scopeOf } from '../../locomo-data.mjs';
import { PEER_MODEL } from '../embeddings-server.mjs';

const EMBED_BATCH = 64;

const make = (name, mode) => ({
  name,
  package: '@orama/orama',
  embeds: `local /v1/embeddings server: ${PEER_MODEL}`,
  /** @param {import('../../peers.mjs').OpenContext} ctx */
  async open(ctx) {
    const { create, insertMultiple, search } = await import('@orama/orama');
    /** @type {Map<string, any>} scope → Orama database */
    const dbs = new Map();
    const embed = (texts, purpose = 'passage') => ctx.embed(texts, { purpose });
    return {
      version: ctx.versionOf('@orama/orama'),
      settings:
        mode === 'hybrid'
          ? { mode, hybridWeights: 'default (0.5 / 0.5)', similarity: 0, limit: ctx.k, tokenizer: 'default (english, no stemming)' }
          : { mode, similarity: 0, limit: ctx.k },
      async ingest(sampleId, turns) {
        const db = create({ schema: { content: 'string', dia: 'string', embedding: `vector[${ctx.embeddings.dimension}]` } });
        dbs.set(scopeOf(sampleId), db);
        for (let i = 0; i < turns.length; i += EMBED_BATCH) {
          const batch = turns.slice(i, i + EMBED_BATCH);
          const vectors = await embed(batch.map((t) => t.input.content));
          await insertMultiple(
            db,
            batch.map((t, j) => ({ content: t.input.content, dia: t.dia, embedding: vectors[j] })),
          );
        }
      },
      async search(sampleId, question, { k }) {
        const db = dbs.get(scopeOf(sampleId));
        const [vector] = await embed([question], 'query');
        const vectorQuery = { value: vector, property: 'embedding' };
        const result = await search(
          db,
          mode === 'hybrid'
            ? { mode, term: question, vector: vectorQuery, similarity: 0, limit: k }
            : { mode, vector: vectorQuery, similarity: 0, limit: k },
        );
        return result.hits.map((h) => h.document.dia);
      },
      async close() {},
    };
  },
});

export const system = make('orama', 'hybrid');
export const vectorSystem = make('orama-vector', 'vector');
