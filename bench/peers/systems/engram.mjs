// Engram in its default configuration with the default model in-process (two embedding worker threads),
// plain ingest ({scope, content, occurredAt} per turn) in batches of 128 as bench/locomo.mjs does it.
// "Ingest" ends when the store is ready for every recall channel: the concept-extraction jobs that
// remember() queues for the background worker are drained inside the timed span.
import { join } from 'node:path';
import { Engram } from '../../../dist/index.js';
import { scopeOf } from '../../locomo-data.mjs';
import { PEER_MODEL, warmUpTexts } from '../embeddings-server.mjs';

export const system = {
  name: 'engram',
  package: 'engram (this repository, dist/)',
  embeds: `in-process: ${PEER_MODEL} (its default model, 2 worker threads)`,
  /** @param {import('../../peers.mjs').OpenContext} ctx */
  async open(ctx) {
    const engram = await Engram.open({ path: join(ctx.workDir, 'engram.db'), embedder: PEER_MODEL, workers: 2 });
    // loaded and warmed before the timed span, as the peers' embeddings server is
    await engram.embedder.embed(warmUpTexts());
    /** @type {Map<string, string>} record id → dia id */
    const diaOf = new Map();
    return {
      version: ctx.ownVersion,
      settings: { embedder: engram.embedder.name, recall: 'default configuration', k: ctx.k },
      async ingest(_sampleId, turns) {
        let i = 0;
        for await (const written of engram.rememberBatches(
          turns.map((t) => t.input),
          { batchSize: 128 },
        )) {
          written.forEach((w, j) => {
            if (!diaOf.has(w.id)) diaOf.set(w.id, turns[i + j].dia);
          });
          i += written.length;
        }
      },
      async finishIngest() {
        await engram.processJobs({ scopes: 'all' });
      },
      async search(sampleId, question, { k, referenceTime }) {
        const { hits } = await engram.recall(question, { scopes: [scopeOf(sampleId)], k, trackAccess: false, referenceTime });
        return hits.map((h) => diaOf.get(h.id));
      },
      close: () => engram.close(),
    };
  },
};
