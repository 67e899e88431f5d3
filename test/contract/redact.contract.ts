/**
 * Secret redaction on a real store: every write path of the engine stores and embeds the redacted text
 * (remember, batches, update and its history wording, Markdown import, relate, chunked documents), and
 * `redact` cleans what an engine without redaction stored, from every read path, the lexical index,
 * the vectors (re-embedded from the cleaned text) and the Markdown export.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engram, RedactionOptions } from '../../src/index.js';
import { reembedText } from '../../src/core/reembed/index.js';

export interface RedactContractOptions {
  name: string;
  skip?: string;
  /** A fresh engine on an empty store; `file` is the SQLite file (its bytes are checked after `redact`). */
  open(
    redaction?: RedactionOptions,
  ): Promise<{ engram: Engram; cleanup: () => Promise<void>; reopen?: () => Promise<Engram>; files?: () => string[] }>;
  /** Reads the raw bytes of the store's files (SQLite only). */
  readFiles?: (files: string[]) => Buffer;
}

const SCOPE = 'acme/projects/shop';
/** Distinctive synthetic credentials (right format, random-looking, not real). */
const GITHUB = 'ghp_Q7wXk2LmN9pR4sT6vY8zA1bC3dE5fG0hJ2kL';
const GITHUB_TAIL = GITHUB.slice(4);
const AWS = 'AKIAQ7WXK2LMN9PR4ST6';
const PASSWORD = 'Zq8!vB3nKx27Lw';
const STRIPE = 'sk_live_Q7wXk2LmN9pR4sT6vY8zA1bC';
const ALL = [GITHUB_TAIL, AWS, PASSWORD, STRIPE];
/** The words of the secrets a lexical index would hold (ordinary words like `live` left out). */
const SECRET_TERMS = [GITHUB_TAIL, AWS, 'vB3nKx27Lw', STRIPE.slice('sk_live_'.length)];

/** Every read path's text of the scope, joined: records (any status), recall hits, history, the export. */
async function everything(engram: Engram): Promise<string> {
  const listed = await engram.list({ scopes: [SCOPE], limit: 200 });
  const ids = listed.items.map((r) => r.id);
  const parts: string[] = [JSON.stringify(listed.items)];
  for (const id of ids)
    parts.push(JSON.stringify(await engram.get(id, { scopes: [SCOPE] })), JSON.stringify(await engram.history(id, { scopes: [SCOPE] })));
  for (const query of ['token clone repository', 'deploy password database', 'stripe key charges', GITHUB, AWS, PASSWORD]) {
    parts.push(JSON.stringify(await engram.recall(query, { scopes: [SCOPE], k: 50, includeSuperseded: true })));
  }
  parts.push(JSON.stringify(await engram.exportMarkdown({ scope: SCOPE })));
  parts.push(JSON.stringify(await engram.edges(ids[0] as string, { scopes: [SCOPE] })));
  // derived fields (entities, claim slots) are lower-cased copies: compare without case
  return parts.join('\n').toLowerCase();
}

/** Lexical hits for each secret as a search term (the index must not know it). */
async function lexicalHits(engram: Engram): Promise<number> {
  let hits = 0;
  for (const term of SECRET_TERMS)
    hits += (
      await engram.store.lexicalSearch({ scopes: [SCOPE], terms: [{ term }], limit: 10, now: engram.clock.now(), includeSuperseded: true })
    ).length;
  return hits;
}

/** Is every record's vector the embedding of its (cleaned) text? */
async function vectorsMatchText(engram: Engram): Promise<void> {
  const { items: records } = await engram.list({ scopes: [SCOPE], limit: 200 });
  const stored = await engram.store.getMemories(
    records.map((r) => r.id),
    [SCOPE],
  );
  for (const record of stored) {
    const [vector] = await engram.embedder.embed([reembedText(record)]);
    const [top] = await engram.store.vectorSearch({
      scopes: [SCOPE],
      vector: vector as Float32Array,
      limit: 1,
      now: engram.clock.now(),
      includeSuperseded: true,
    });
    expect(top?.id).toBe(record.id);
    expect(top?.score).toBeCloseTo(1, 4);
  }
}

const long = (word: string): string =>
  Array.from(
    { length: 30 },
    (_, i) => `${word} ${i} of the deploy runbook: check the dashboards and the queue depth before moving on.`,
  ).join(' ');

/** Writes through every path of the engine; returns the ids written. */
async function writeEverywhere(engram: Engram): Promise<{ single: string; claim: string; doc: string; counts: number[] }> {
  const single = await engram.remember({
    scope: SCOPE,
    content: `git clone https://${GITHUB}@github.com/acme/shop.git fails with "Repository not found".`,
  });
  const batch = await engram.remember([
    { scope: SCOPE, content: `I exported AWS_ACCESS_KEY_ID=${AWS} in CI but the deploy gets AccessDenied.` },
    { scope: SCOPE, content: 'We deploy from the main branch only.' },
  ]);
  const claim = await engram.remember({ scope: SCOPE, layer: 'semantic', content: 'The staging database is on host db.internal.' });
  await engram.update(
    claim.id,
    { content: `The staging database is postgres://app:${PASSWORD}@db.internal:5432/shop now.` },
    { scope: SCOPE },
  );
  await engram.update(claim.id, { content: 'The staging database credentials live in Vault.' }, { scope: SCOPE });
  const bulk: number[] = [];
  for await (const results of engram.rememberBatches([{ scope: SCOPE, content: `Stripe.api_key = "${STRIPE}" and charges fail.` }], {
    batchSize: 1,
  }))
    bulk.push(...results.map((r) => r.redacted ?? 0));
  const doc = await engram.remember({ scope: SCOPE, content: `${long('Step')} The bot token is ${GITHUB}. ${long('Phase')}` });
  const imported = await engram.importMarkdown(
    { 'log.md': `## 2024-05-01\n\n- The admin password is ${PASSWORD} for the staging box.\n` },
    { scope: SCOPE },
  );
  await engram.relate({
    scope: SCOPE,
    from: single.id,
    type: 'RELATED_TO',
    to: batch[0]?.id as string,
    metadata: { note: `same token ${GITHUB}` },
  });
  return {
    single: single.id,
    claim: claim.id,
    doc: doc.id,
    counts: [single.redacted ?? 0, batch[0]?.redacted ?? 0, batch[1]?.redacted ?? 0, ...bulk, doc.redacted ?? 0, imported.redacted ?? 0],
  };
}

export function runRedactContract(options: RedactContractOptions): void {
  describe.skipIf(options.skip !== undefined)(
    `secret redaction on ${options.name}${options.skip !== undefined ? ` (skipped: ${options.skip})` : ''}`,
    { timeout: 120_000 },
    () => {
      let cleanup: (() => Promise<void>) | undefined;
      afterEach(async () => {
        await cleanup?.();
        cleanup = undefined;
      });

      it('every write path stores and embeds the redacted text, and counts what it replaced', async () => {
        const site = await options.open();
        cleanup = site.cleanup;
        const { engram } = site;
        const { single, counts } = await writeEverywhere(engram);
        expect(counts).toEqual([1, 1, 0, 1, 1, 1]);
        expect((await engram.get(single, { scopes: [SCOPE] })).content).toContain(
          'https://[redacted:github-token]@github.com/acme/shop.git',
        );
        const text = await everything(engram);
        for (const secret of ALL) expect(text).not.toContain(secret.toLowerCase());
        expect(text).toContain('[redacted:url-password]');
        expect(text).toContain('[redacted:password]');
        expect(text).toContain('[redacted:stripe-key]');
        expect(await lexicalHits(engram)).toBe(0);
        await vectorsMatchText(engram);
      });

      it('redact cleans what was stored without redaction: records, history wordings, the index, vectors, the export', async () => {
        const site = await options.open({ enabled: false });
        cleanup = site.cleanup;
        const { engram } = site;
        const { claim, counts } = await writeEverywhere(engram);
        expect(counts.every((n) => n === 0)).toBe(true);
        const before = await everything(engram);
        for (const secret of ALL) expect(before).toContain(secret.toLowerCase());
        expect(await lexicalHits(engram)).toBeGreaterThan(0);

        const dry = await engram.redact({ scopes: [SCOPE], dryRun: true });
        expect(dry).toMatchObject({ dryRun: true, reembedded: 0, edges: 1 });
        expect(dry.records).toBeGreaterThanOrEqual(6);
        expect(dry.kinds).toMatchObject({
          'github-token': expect.any(Number),
          'aws-access-key': expect.any(Number),
          'url-password': expect.any(Number),
          'stripe-key': expect.any(Number),
          password: expect.any(Number),
        });
        expect(await everything(engram)).toContain(GITHUB_TAIL.toLowerCase());

        const report = await engram.redact({ scopes: [SCOPE] });
        expect(report).toMatchObject({ dryRun: false, records: dry.records, redacted: dry.redacted, edges: 1, kinds: dry.kinds });
        expect(report.reembedded).toBeGreaterThanOrEqual(5);
        const after = await everything(engram);
        for (const secret of ALL) expect(after).not.toContain(secret.toLowerCase());
        const history = (await engram.get(claim, { scopes: [SCOPE] })).history as { content: string }[];
        expect(history.map((h) => h.content).join('\n')).toContain('postgres://app:[redacted:url-password]@db.internal');
        expect(await lexicalHits(engram)).toBe(0);
        await vectorsMatchText(engram);
        // a second run finds nothing left
        expect(await engram.redact({ scopes: [SCOPE] })).toMatchObject({ records: 0, redacted: 0 });

        if (options.readFiles !== undefined && site.files !== undefined) {
          const files = site.files();
          await engram.close();
          const bytes = options.readFiles(files).toString('latin1');
          for (const secret of ALL) expect(bytes.toLowerCase()).not.toContain(secret.toLowerCase());
        }
      });

      it('redact cleans the question an assistant left open; an answer read with a question kept unredacted is stored redacted', async () => {
        const site = await options.open({ enabled: false });
        cleanup = site.cleanup;
        const { engram } = site;
        const asked = { scope: SCOPE, capture: true, source: { conversationId: 'c9', messageId: 'm1' } };
        await engram.remember({ ...asked, content: `assistant: Should I push with token ${GITHUB} to the repo?` });
        const question = async () => JSON.stringify((await engram.store.getState(SCOPE, 'capture/open-question/c9'))?.value ?? null);
        expect(await question()).toContain(GITHUB);
        expect(await engram.redact({ scopes: [SCOPE], dryRun: true })).toMatchObject({ states: 1 });
        expect(await question()).toContain(GITHUB);
        const report = await engram.redact({ scopes: [SCOPE] });
        expect(report.states).toBe(1);
        expect(await question()).not.toContain(GITHUB_TAIL);
        expect(await question()).toContain('[redacted:github-token]');

        // a question kept from a write made while redaction was off is redacted again when a later turn answers it
        const on = await options.open();
        try {
          await on.engram.store.transaction((tx) =>
            tx.setState(SCOPE, 'capture/open-question/c10', { question: `Should I push with token ${GITHUB} to the repo?` }, 1),
          );
          const { id } = await on.engram.remember({
            scope: SCOPE,
            capture: true,
            content: 'user: yes, because the CI needs it',
            source: { conversationId: 'c10', messageId: 'm2' },
          });
          const stored = JSON.stringify(await on.engram.get(id, { scopes: [SCOPE] }));
          expect(stored).toContain('[redacted:github-token]');
          expect(stored).not.toContain(GITHUB_TAIL);
        } finally {
          await on.cleanup();
        }
      });

      it('extra patterns are redacted with their kind; a bad pattern is a clear INVALID_INPUT', async () => {
        const site = await options.open({ patterns: [{ kind: 'acme-token', pattern: 'acme_[A-Za-z0-9]{24}' }] });
        cleanup = site.cleanup;
        const result = await site.engram.remember({
          scope: SCOPE,
          content: 'The internal token acme_Q7wXk2LmN9pR4sT6vY8zA1bC unlocks the admin panel.',
        });
        expect(result.redacted).toBe(1);
        expect((await site.engram.get(result.id, { scopes: [SCOPE] })).content).toBe(
          'The internal token [redacted:acme-token] unlocks the admin panel.',
        );
        await expect(options.open({ patterns: [{ kind: 'Bad Kind', pattern: 'x' }] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(options.open({ patterns: [{ kind: 'broken', pattern: '([a-z' }] })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringContaining('"broken" is not a valid regular expression'),
        });
      });
    },
  );
}
