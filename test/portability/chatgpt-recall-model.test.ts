/**
 * With the real default model (bge-small-en-v1.5): a ChatGPT conversation imported from its data
 * export is found by meaning, through a question that shares no key word with the turn that answers it.
 */
import { homedir } from 'node:os';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { applyImport, chatgptUnits } from '../../src/portability/importers/index.js';
import { tempEngram } from '../helpers/temp.js';

const BGE = 'bge-small-en-v1.5';
const installed = hasModelFiles(resolveModelCacheDir(process.env, homedir()), BGE);
const SCOPE = 'me/chats';

describe.skipIf(!installed && process.env.CI !== 'true')(
  'an imported ChatGPT conversation is recallable by meaning (bge-small-en-v1.5)',
  () => {
    let ctx: Awaited<ReturnType<typeof tempEngram>>;
    let engram: Engram;

    beforeAll(async () => {
      ctx = await tempEngram({ embedder: BGE });
      engram = ctx.engram;
      const parsed: unknown = JSON.parse(
        readFileSync(fileURLToPath(new URL('../fixtures/import/chatgpt/conversations.json', import.meta.url)), 'utf8'),
      );
      const report = await applyImport(engram, 'chatgpt', chatgptUnits(parsed, { scope: SCOPE }));
      expect(report.memories.created).toBe(6);
    }, 120_000);
    afterAll(async () => ctx?.cleanup());

    it('finds the warm-up advice for a paraphrased question, on meaning alone', async () => {
      const { hits } = await engram.recall('how much time must my coffee maker preheat', {
        scopes: [SCOPE],
        layers: ['episodic'],
        k: 3,
        weights: { lexical: 0, entity: 0, temporal: 0 },
      });
      expect(hits[0]?.content).toMatch(/Gaggia Classic/);
    });

    it('finds the travel plans for a question about a holiday in Portugal', async () => {
      const { hits } = await engram.recall('where are we going on vacation in Portugal', {
        scopes: [SCOPE],
        layers: ['episodic'],
        k: 3,
        weights: { lexical: 0, entity: 0, temporal: 0 },
      });
      expect(
        hits
          .slice(0, 2)
          .map((h) => h.content)
          .join('\n'),
      ).toMatch(/Lisbon|Alfama/);
    });
  },
);
