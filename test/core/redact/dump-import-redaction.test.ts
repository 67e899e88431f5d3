/**
 * A dump written by a store without redaction, imported into a store with it: nothing of a secret
 * reaches the importing store (records, their vectors, edge metadata, relation types, state documents
 * and the database file), the report counts what was replaced, and a second import writes nothing.
 * Into a store with redaction off, the dump is restored exactly as it was written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { reembedText } from '../../../src/core/reembed/reembed-text.js';
import type { Engram } from '../../../src/index.js';
import { databaseText } from '../../helpers/database-bytes.js';
import { tempEngram } from '../../helpers/temp.js';

const SCOPE = 't/dump';
const GITHUB = 'ghp_Rk5Nw9Tb2Yh6Mq0Vc3Xs7Jd1Lf4Pg8Za2Ue5';
const TAIL = GITHUB.slice(4);
const PASSWORD = 'Hq7mZ2pLw9xq';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function dumpOf(engram: Engram): Promise<string> {
  let text = '';
  for await (const line of engram.exportJsonl({ scopes: [SCOPE], embeddings: true })) text += line;
  return text;
}

/** A store without redaction holding secrets in every kind of line that carries text. */
async function dumpWithSecrets(): Promise<string> {
  const raw = await tempEngram({ redaction: { enabled: false } });
  cleanups.push(raw.cleanup);
  const bot = await raw.engram.remember({ scope: SCOPE, layer: 'semantic', content: `The CI bot pushes with ${GITHUB}` });
  await raw.engram.remember({ scope: SCOPE, layer: 'semantic', content: `The staging database uses DB_PASSWORD=${PASSWORD}` });
  const repo = await raw.engram.remember({ scope: SCOPE, layer: 'semantic', content: 'The shop repo lives on GitHub.' });
  await raw.engram.registerRelation({ scope: SCOPE, name: 'DEPLOYS_WITH', description: `GITHUB_TOKEN=${GITHUB}` });
  await raw.engram.relate({ scope: SCOPE, from: bot.id, type: 'DEPLOYS_WITH', to: repo.id, metadata: { note: `uses ${GITHUB}` } });
  await raw.engram.store.transaction((tx) => tx.setState(SCOPE, 'note:ci', { text: `password: ${PASSWORD}` }, 1_700_000_000_000));
  const dump = await dumpOf(raw.engram);
  expect(dump).toContain(TAIL);
  expect(dump).toContain(PASSWORD);
  return dump;
}

describe('dump import into a redacting store', () => {
  it('redacts every line that carries text, re-embeds the records it changed, and counts what it replaced', async () => {
    const dump = await dumpWithSecrets();
    const target = await tempEngram();
    cleanups.push(target.cleanup);

    const report = await target.engram.importJsonl([dump]);
    expect(report.complete).toBe(true);
    expect(report.counts.record.created).toBe(3);
    // each record with a secret: its content, its claim's value and an entity (lower-cased copies);
    // then the edge's metadata, the relation type's description and the state document
    expect(report.redacted).toBe(9);
    // the dump's vectors are of the same model: only the two redacted records are embedded again
    expect(report.embedder.vectors).toBe('dump');
    expect(report.embedded).toBe(2);

    const ids = dump
      .split('\n')
      .filter((line) => line.startsWith('{"kind":"record"'))
      .map((line) => (JSON.parse(line) as { record: { id: string } }).record.id);
    const records = await target.engram.store.getMemories(ids, [SCOPE]);
    expect(records.map((r) => r.content).sort()).toEqual([
      'The CI bot pushes with [redacted:github-token]',
      'The shop repo lives on GitHub.',
      'The staging database uses DB_PASSWORD=[redacted:password]',
    ]);
    const [edge] = await target.engram.store.getEdges({ scopes: [SCOPE], ids });
    expect(edge?.metadata).toEqual({ note: 'uses [redacted:github-token]' });
    const types = await target.engram.store.getRelationTypes([SCOPE]);
    expect(types.find((t) => t.name === 'DEPLOYS_WITH')?.description).toBe('GITHUB_TOKEN=[redacted:github-token]');
    expect((await target.engram.store.getState(SCOPE, 'note:ci'))?.value).toEqual({ text: 'password: [redacted:password]' });
    // every vector is the embedding of the cleaned text (the two redacted records' dumped vectors were of the secret)
    const vectors = await target.engram.store.getEmbeddings(SCOPE, ids);
    for (const record of records) {
      const [expected] = await target.engram.embedder.embed([reembedText(record)]);
      expect([...(vectors.get(record.id) ?? [])]).toEqual([...(expected ?? [])]);
    }

    // a second import compares the redacted lines: nothing is written twice
    const again = await target.engram.importJsonl([dump]);
    expect(again.counts.record).toEqual({ created: 0, skipped: 3, conflicting: 0 });
    expect(again.counts.state).toEqual({ created: 0, skipped: 1, conflicting: 0 });
    expect(again.counts.edge.created).toBe(0);
    expect(again.conflicts).toEqual([]);

    await target.engram.close();
    const stored = databaseText(target.path).toLowerCase();
    expect(stored).not.toContain(TAIL.toLowerCase());
    expect(stored).not.toContain(PASSWORD.toLowerCase());
  });

  it('restores the dump exactly into a store with redaction off', async () => {
    const dump = await dumpWithSecrets();
    const target = await tempEngram({ redaction: { enabled: false } });
    cleanups.push(target.cleanup);
    const report = await target.engram.importJsonl([dump]);
    expect(report.redacted).toBeUndefined();
    expect(report.embedded).toBe(0);
    expect(await dumpOf(target.engram)).toBe(dump);
  });
});
