// mem0's open-source TypeScript SDK (mem0ai/oss) without an LLM: add(…, {infer: false}) stores each turn
// verbatim as one memory, search() is mem0's own retrieval (vector similarity fused with its BM25 keyword
// score and entity boosts). Embeddings come from the benchmark's local OpenAI-compatible server (same
// model as Engram); the vector store is mem0's built-in "memory" provider (a SQLite file scanned
// exactly), history is disabled, telemetry is off (MEM0_TELEMETRY=false). One user id per conversation.
// search() gets topK 10 and threshold 0 (mem0's default threshold 0.1 would return fewer than 10 hits).
import { join } from 'node:path';
import { scopeOf } from '../../locomo-data.mjs';
import { PEER_MODEL } from '../embeddings-server.mjs';

export const system = {
  name: 'mem0',
  package: 'mem0ai',
  embeds: `local /v1/embeddings server: ${PEER_MODEL} (its SDK cannot mark a text as a query: questions are embedded as passages)`,
  /** @param {import('../../peers.mjs').OpenContext} ctx */
  async open(ctx) {
    process.env.MEM0_TELEMETRY = 'false';
    const { Memory } = await import('mem0ai/oss');
    const memory = new Memory({
      version: 'v1.1',
      embedder: { provider: 'openai', config: { apiKey: 'local-bench', baseURL: ctx.embeddings.url, model: ctx.embeddings.model } },
      vectorStore: {
        provider: 'memory',
        config: { collectionName: 'bench', dimension: ctx.embeddings.dimension, dbPath: join(ctx.workDir, 'mem0-vectors.db') },
      },
      // never called with infer: false; mem0 builds an LLM client at construction, so it gets the local URL
      llm: { provider: 'openai', config: { apiKey: 'local-bench', baseURL: ctx.embeddings.url, model: 'none' } },
      disableHistory: true,
    });
    /** @type {Map<string, string>} memory id → dia id */
    const diaOf = new Map();
    return {
      version: ctx.versionOf('mem0ai'),
      settings: { infer: false, vectorStore: 'memory (SQLite, exact scan)', history: 'disabled', topK: ctx.k, threshold: 0 },
      async ingest(sampleId, turns) {
        const userId = scopeOf(sampleId);
        for (const t of turns) {
          const { results } = await memory.add(t.input.content, { userId, infer: false, metadata: { dia: t.dia } });
          for (const r of results) diaOf.set(r.id, t.dia);
        }
      },
      async search(sampleId, question, { k }) {
        const { results } = await memory.search(question, { filters: { user_id: scopeOf(sampleId) }, topK: k, threshold: 0 });
        return results.map((r) => diaOf.get(r.id) ?? r.metadata?.dia);
      },
      async close() {
        // the vector store holds a better-sqlite3 handle; the process ends right after the run
      },
    };
  },
};
