/**
 * PostgreSQL migration 11 on a store written before it: rows whose lexemes held a Chinese run as one
 * lexeme get the run's words, and their term counts, once the store is opened; English rows keep theirs.
 * Runs on the test server (`ENGRAM_TEST_PG_URL`).
 */
import { describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { freshPgSchema, pgExec, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';

const url = pgTestUrl();

describe.skipIf(url === undefined)(
  `PostgreSQL migration 11 (CJK words as lexemes)${url === undefined ? ` (skipped: ${PG_SKIP_REASON})` : ''}`,
  () => {
    it('re-lexes Chinese rows written before it; English rows are found as before', async () => {
      const { url: schemaUrl, schema, drop } = freshPgSchema('cjk');
      const lexicalOnly = { lexical: 1, semantic: 0, entity: 0, temporal: 0, graph: 0, affect: 0, neighbour: 0 };
      const lexicalHits = (hits: readonly { content: string; why: { channels: Record<string, unknown> } }[]) =>
        hits.filter((hit) => hit.why.channels.lexical !== undefined).map((hit) => hit.content);
      try {
        let engram = await Engram.open({ path: schemaUrl, embedder: 'hash' });
        await engram.remember([
          { scope: 'acme/a', content: '数据库迁移在周五失败了。' },
          { scope: 'acme/a', content: 'The deploy failed on Friday.' },
        ]);
        await engram.close();
        // what migration 10 left: the Chinese run as one lexeme, one term
        await pgExec(
          schemaUrl,
          `UPDATE "${schema}".memories SET lexemes = array_to_tsvector(ARRAY['数据库迁移在周五失败了']), term_count = 1 WHERE content LIKE '数据库%';
         DELETE FROM "${schema}".schema_migrations WHERE version = 11;`,
        );
        engram = await Engram.open({ path: schemaUrl, embedder: 'hash' });
        try {
          expect(lexicalHits((await engram.recall('迁移', { scopes: ['acme/a'], weights: lexicalOnly })).hits)).toEqual([
            '数据库迁移在周五失败了。',
          ]);
          expect(lexicalHits((await engram.recall('deploy', { scopes: ['acme/a'], weights: lexicalOnly })).hits)).toEqual([
            'The deploy failed on Friday.',
          ]);
        } finally {
          await engram.close();
        }
      } finally {
        await drop();
      }
    }, 60_000);
  },
);
