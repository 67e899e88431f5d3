/**
 * What the reflect phase writes, on a real SQLite store: the records a reflection quotes are in its
 * provenance and are current, and unrelated topics make separate themes whatever the embedder's scale.
 */
import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import type { Engram } from '../../src/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/users/erin';
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function open(options: Parameters<typeof tempEngram>[0] = {}): Promise<Engram> {
  const t = await tempEngram({ clock: new ManualClock(NOW), ...options });
  cleanups.push(t.cleanup);
  return t.engram;
}

async function reflections(engram: Engram): Promise<MemoryRecord[]> {
  return (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], statuses: ['active'], limit: 10_000 })).filter(
    (r) => r.provenance.kind === 'reflection',
  );
}

function representativesOf(r: MemoryRecord): string[] {
  return (r.data.reflection as { representatives: string[] }).representatives;
}

const SERVICES = [
  'payments',
  'checkout',
  'orders',
  'billing',
  'search',
  'auth',
  'inventory',
  'shipping',
  'ledger',
  'notifications',
  'reports',
];

describe('reflection provenance', () => {
  it('lists the quoted representatives first in derivedFrom, even in a cluster of more than 50 members', async () => {
    const engram = await open();
    await engram.remember(
      Array.from({ length: 55 }, (_, i) => ({
        scope: SCOPE,
        content: `Deploy ${i} of the ${SERVICES[i % 11]} service went out on day ${i} after the usual canary checks.`,
        importance: 0.6,
      })),
    );
    // the newest id and the most important: sorted by id it is past the first 50
    const secret = await engram.remember({
      scope: SCOPE,
      content: 'Deploy 99 of the payments service went out on day 99 after the usual canary checks, approved from phone ZEPHYRQUILL-5521.',
      importance: 0.95,
    });
    await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
    const quoting = (await reflections(engram)).find((r) => r.content.includes('ZEPHYRQUILL'));
    expect(quoting).toBeDefined();
    const reflection = quoting as MemoryRecord;
    const representatives = representativesOf(reflection);
    expect(representatives).toContain(secret.id);
    expect(reflection.provenance.derivedFrom).toContain(secret.id);
    expect(reflection.provenance.derivedFrom.slice(0, representatives.length)).toEqual(representatives);
    expect(reflection.provenance.derivedFrom).toHaveLength(50);
    expect(new Set(reflection.provenance.derivedFrom).size).toBe(50);
  });
});

describe('reflection examples', () => {
  it('quotes current records only: no episode whose captured claim was corrected, nothing out of validity', async () => {
    const engram = await open();
    const turns = [
      'user: I live in Lisbon.',
      'user: My favourite food is sushi.',
      'user: I work at Google as an engineer.',
      'user: I have a dog named Rex.',
      'user: I speak Portuguese.',
      'user: I am vegetarian.',
      'user: Actually I moved to Porto.',
      'user: Correction: my favourite food is ramen.',
      'user: I now work at Microsoft.',
      'user: I also speak French.',
      'user: I am no longer vegetarian.',
      'user: We adopted a cat named Luna too.',
    ];
    for (const [i, content] of turns.entries())
      await engram.remember({
        scope: SCOPE,
        content,
        capture: true,
        importance: 0.8,
        occurredAt: NOW - (turns.length - i) * 3 * DAY,
        source: { conversationId: 'c', messageId: `m${i}` },
      });
    // a note whose validity already ended: not true now
    await engram.remember({
      scope: SCOPE,
      layer: 'semantic',
      content: 'I am on holiday in Madeira this spring.',
      importance: 0.9,
      validFrom: NOW - 90 * DAY,
      validTo: NOW - 30 * DAY,
    });
    const report = await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
    const written = await reflections(engram);
    expect(written.length, JSON.stringify(report.phases)).toBeGreaterThanOrEqual(1);
    const all = await engram.store.listMemories({ scopes: [SCOPE], limit: 10_000 });
    const byId = new Map(all.map((r) => [r.id, r]));
    const corrected = all.filter((r) => r.status === 'superseded').flatMap((r) => r.provenance.derivedFrom);
    expect(corrected).toHaveLength(4);
    for (const reflection of written) {
      for (const stale of ['Lisbon', 'sushi', 'Google', 'I am vegetarian', 'Madeira']) expect(reflection.content).not.toContain(stale);
      for (const id of [...representativesOf(reflection), ...reflection.provenance.derivedFrom]) {
        const quoted = byId.get(id) as MemoryRecord;
        expect(quoted.status).toBe('active');
        expect(quoted.validTo).toBeNull();
        expect(corrected).not.toContain(id);
      }
    }
  });

  it('quotes the most recent of equally important members', async () => {
    const engram = await open();
    const notes = Array.from(
      { length: 10 },
      (_, i) => `The nightly deploy of the ${SERVICES[i]} service to production was rolled back after the canary (night ${i}).`,
    );
    // stored newest first, so the order of ids is the opposite of the order of events
    await engram.remember(notes.map((content, i) => ({ scope: SCOPE, content, importance: 0.7, occurredAt: NOW - i * DAY })).reverse());
    await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
    const [reflection] = await reflections(engram);
    expect(reflection?.content).toContain('(night 0)');
    expect(reflection?.content).toContain('(night 1)');
    expect(reflection?.content).toContain('(night 2)');
  });
});

const DEPLOY_NOTES = [
  'The staging deploy failed because the database migration timed out.',
  'We rolled back the payments service after the canary showed 5xx errors.',
  'Kubernetes pods for the checkout API were OOM-killed during the release.',
  'The CI pipeline now runs integration tests before every production deploy.',
  'Deploy to production was blocked because the Terraform plan showed drift.',
  'The release train moved the orders service to version 4.2 last night.',
];
const COOKING_NOTES = [
  "Grandma's lasagne needs the bechamel to rest for ten minutes before layering.",
  'Sourdough starter doubles in size when fed with rye flour at room temperature.',
  'Roast the aubergines at 220 degrees until the skins blister, then peel them.',
  'The risotto turned gluey because I stirred in the parmesan too early.',
  'Toasting cumin seeds in a dry pan makes the dal far more fragrant.',
  'Lemon curd sets better when the eggs are whisked over a bain-marie.',
];

/** Reflects on `deploy` and `cooking` notes and says which of them each theme summarises. */
async function themes(
  engram: Engram,
  deploy: readonly string[],
  cooking: readonly string[],
): Promise<{ deploy: number; cooking: number }[]> {
  const written = await engram.remember([...deploy, ...cooking].map((content) => ({ scope: SCOPE, content, importance: 0.8 })));
  const deployIds = new Set(written.slice(0, deploy.length).map((w) => w.id));
  await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
  return (await reflections(engram)).map((r) => ({
    deploy: r.provenance.derivedFrom.filter((id) => deployIds.has(id)).length,
    cooking: r.provenance.derivedFrom.filter((id) => !deployIds.has(id)).length,
  }));
}

const blend = 'blend-e5-minilm';
const blendMissing = hasModelFiles(resolveModelCacheDir(process.env, homedir()), blend)
  ? ''
  : ` (skipped: ${blend} is not in the model cache; run "engram models pull ${blend}")`;

describe.skipIf(blendMissing !== '')(`reflection themes with the real default model ${blend}${blendMissing}`, () => {
  it('keeps deploy notes and cooking notes apart although unrelated sentences are at cosine ≈ 0.55', async () => {
    const engram = await open({ embedder: blend });
    expect(engram.embedder.name).toMatch(/blend-e5-minilm/);
    const found = await themes(engram, DEPLOY_NOTES, COOKING_NOTES);
    expect(found.filter((t) => t.deploy >= 3)).toHaveLength(1);
    expect(found.filter((t) => t.cooking >= 3)).toHaveLength(1);
    expect(found.every((t) => t.deploy === 0 || t.cooking === 0)).toBe(true);
  }, 180_000);

  it('keeps two streams of alike-worded ticket notes apart: tight clusters far less alike than inside (clusterGap)', async () => {
    // a support queue's notes share their wording ("… for ticket T…"), so refunds and password resets are
    // at cosine ≈ 0.7, far above the unrelated baseline, yet each stream is at ≈ 0.95 inside
    const refunds = Array.from(
      { length: 8 },
      (_, i) => `Issued refund for ticket T${40 + i}${i} through stripe_refund${i % 2 ? ' and the customer confirmed' : ''}.`,
    );
    const resets = Array.from(
      { length: 8 },
      (_, i) => `Tried password reset via legacy_sso for ticket T${60 + i}${i}: ${i % 3 ? 'failed with timeout' : 'worked'}.`,
    );
    const together = await themes(await open({ embedder: blend, consolidation: { reflection: { clusterGap: 0 } } }), refunds, resets);
    expect(together.some((t) => t.deploy > 0 && t.cooking > 0)).toBe(true); // without the gap: one mixed theme
    const found = await themes(await open({ embedder: blend }), refunds, resets);
    expect(found.filter((t) => t.deploy >= 3)).toHaveLength(1);
    expect(found.filter((t) => t.cooking >= 3)).toHaveLength(1);
    expect(found.every((t) => t.deploy === 0 || t.cooking === 0)).toBe(true);
  }, 180_000);
});

describe('reflection quotes', () => {
  it('clips a long quote where a character ends, so the stored reflection holds no U+FFFD or lone surrogate', async () => {
    const engram = await open();
    const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
    // the quote is clipped to 139 units: each note puts a different character across that cut
    const straddlers = ['😀', '👨‍👩‍👧‍👦', '🇵🇹', '👍🏽', 'e\u0301', '🇯🇵'];
    const notes = [...straddlers, ...straddlers].map((s, i) => {
      const head = `The deploy to production failed because the database migration timed out again (run ${i}) `;
      return `${head}${'x'.repeat(139 - head.length - (i % 2))}${s} and the rest of the note.`;
    });
    await engram.remember(notes.map((content) => ({ scope: SCOPE, content, importance: 0.8 })));
    await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
    const written = await reflections(engram);
    expect(written.length).toBeGreaterThanOrEqual(1);
    const quotes = written.flatMap((r) => [...r.content.matchAll(/"([^"]*)…"/g)].map((m) => m[1] as string));
    expect(quotes.length).toBeGreaterThanOrEqual(1);
    for (const reflection of written) {
      expect(reflection.content).not.toContain('\uFFFD');
      expect(reflection.content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    for (const quote of quotes) {
      const note = notes.find((n) => n.startsWith(quote)) as string;
      expect(note).toBeDefined();
      expect(graphemes.segment(note).containing(quote.length)?.index).toBe(quote.length);
    }
  });
});
