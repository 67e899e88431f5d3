/**
 * Seed 003's schema of what to learn: a per-scope profile schema (procedural, `category:
 * "profile-schema"`), set through the API, `remember` or `schema.md`; the context of a turn lists the
 * fields the user's facts answer and those still missing; an answer to a clarifying question captured
 * through the HITL path fills its field. Real SQLite files; the hash embedder, and the real
 * bge-small-en-v1.5 for the capture path.
 */
import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { extractClaim } from '../../src/core/write/claims/claim-extractor.js';
import { matchProfileFields } from '../../src/core/profile/profile-fields.js';
import { parseProfileSchema, renderProfileSchema, type ProfileField } from '../../src/core/profile/profile-schema.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

const SHARED = 'acme/shared';
const ALICE = 'acme/users/alice';
const scopes = [SHARED, ALICE];

const FIELDS: ProfileField[] = [
  { name: 'budget range', description: 'the price range the user can afford', example: '80L' },
  { name: 'location preferences', description: 'neighbourhoods or areas the user wants to live in', example: 'Koramangala, Indiranagar' },
  { name: 'BHK requirement', description: 'number of bedrooms', example: '3 BHK' },
  { name: 'floor preference', description: 'which floor the user likes', example: 'high floor' },
  { name: 'must-have amenities', description: 'facilities the user needs', example: 'gym, pool' },
];

/** Labelled facts: the field each answers, or null for facts that answer none. */
export const LABELLED_FACTS: [string, string | null][] = [
  ['The budget range is around 80 lakh.', 'budget range'],
  ["The user's budget range is 1.2 crore.", 'budget range'],
  ['My budget is 80L.', 'budget range'],
  ['Budget: 95L', 'budget range'],
  ['I can afford a price range of 70 to 90 lakh.', 'budget range'],
  ['I prefer Koramangala.', 'location preferences'],
  ['The locations is Koramangala or Indiranagar.', 'location preferences'],
  ['Location: Whitefield', 'location preferences'],
  ['I want to live in Indiranagar.', 'location preferences'],
  ['Preferred area: HSR Layout', 'location preferences'],
  ['I want a 3 BHK.', 'BHK requirement'],
  ['BHK: 2 or 3', 'BHK requirement'],
  ['The BHK requirement is 2 BHK.', 'BHK requirement'],
  ['I need three bedrooms.', 'BHK requirement'],
  ['Floor preference: high floor', 'floor preference'],
  ['I like high floors.', 'floor preference'],
  ['The user prefers a ground floor.', 'floor preference'],
  ['I need a gym and a pool.', 'must-have amenities'],
  ['Amenities: clubhouse, pool', 'must-have amenities'],
  ['Must-have amenities are a gym and power backup.', 'must-have amenities'],
  ['My dog is called Rex.', null],
  ['I work at Infosys.', null],
  ['My daughter goes to Greenwood High.', null],
  ['I drive a Honda City.', null],
  ['I moved from Chennai last year.', null],
  ['My wife is a doctor.', null],
  ['I like cricket.', null],
  ['The user is vegetarian.', null],
  ['I prefer email over phone calls.', null],
  ['My name is Alice.', null],
];

describe('profile schema: reading and matching', () => {
  it('reads the text form back to the same fields (round trip) and the seed\'s "Store:" form', () => {
    expect(parseProfileSchema(renderProfileSchema(FIELDS))).toEqual(FIELDS);
    const seed = parseProfileSchema(
      'Store: budget range, location preferences, BHK requirement,\n       floor preference, must-have amenities.\nFile: user/profile.md\nFormat: - Budget: 80L [2026-01]',
    );
    expect(seed.map((f) => f.name)).toEqual([
      'budget range',
      'location preferences',
      'BHK requirement',
      'floor preference',
      'must-have amenities',
    ]);
  });

  it('matches labelled facts to fields by words, not by embedding (accuracy on 30 labelled facts)', () => {
    let right = 0;
    const wrong: string[] = [];
    for (const [content, expected] of LABELLED_FACTS) {
      const claim = extractClaim(content)[0];
      const { known } = matchProfileFields(FIELDS, [{ id: 'f', content, validFrom: 0, ...(claim !== undefined ? { claim } : {}) }]);
      const got = known[0]?.field ?? null;
      if (got === expected) right++;
      else wrong.push(`${content} → ${got ?? 'none'} (want ${expected ?? 'none'})`);
    }
    const falsePositives = LABELLED_FACTS.filter(([c, e]) => e === null && wrong.some((w) => w.startsWith(c))).length;
    console.log(
      `profile field matching: ${right}/${LABELLED_FACTS.length} right, ${falsePositives} of 10 unrelated facts matched a field; wrong: ${wrong.join(' | ')}`,
    );
    expect(right / LABELLED_FACTS.length).toBeGreaterThanOrEqual(0.8);
    expect(falsePositives).toBeLessThanOrEqual(1);
  });

  it('a fact whose words fit two fields equally answers neither, and the newest fact of a field wins', () => {
    const fields = [{ name: 'floor preference' }, { name: 'location preferences' }];
    expect(
      matchProfileFields(fields, [
        { id: 'a', content: 'I prefer it.', validFrom: 0, claim: { subject: 'user', attribute: 'prefers', value: 'it' } },
      ]).known,
    ).toEqual([]);
    const two = matchProfileFields(
      [{ name: 'budget' }],
      [
        { id: 'old', content: 'Budget: 60L', validFrom: 1, claim: { subject: 'budget', attribute: 'value', value: '60l' } },
        { id: 'new', content: 'Budget: 80L', validFrom: 2, claim: { subject: 'budget', attribute: 'value', value: '80l' } },
      ],
    );
    expect(two.known).toEqual([{ field: 'budget', value: '80l', since: new Date(2).toISOString(), id: 'new' }]);
  });
});

describe('profile schema: API, context and Markdown', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  async function open(options: Parameters<typeof tempEngram>[0] = {}): Promise<Engram> {
    const ctx = await tempEngram(options);
    cleanups.push(ctx.cleanup);
    return ctx.engram;
  }

  it('sets a schema as a new version, reads it for the scopes that see it, and keeps it out of the rules', async () => {
    const engram = await open();
    await engram.remember({
      scope: SHARED,
      layer: 'procedural',
      content: "Never suggest properties outside the user's stated budget.",
      priority: 5,
    });
    const first = await engram.setProfileSchema({ scope: SHARED, fields: FIELDS.slice(0, 2) });
    const second = await engram.setProfileSchema({ scope: SHARED, fields: FIELDS, reason: 'added BHK, floor and amenities' });
    expect(second.superseded).toEqual(first.ids);
    expect((await engram.profileSchema({ scopes })).fields).toEqual(FIELDS);
    expect((await engram.profileSchema({ scopes: [ALICE] })).fields).toEqual([]);
    const history = await engram.history(second.ids[0] as string, { scopes: [SHARED] });
    expect(history.versions.map((v) => v.status)).toEqual(['superseded', 'active']);
    const ctx = await engram.context({ scopes, message: 'Show me some flats', budgetMs: 5_000 });
    expect(ctx.parts.rules.items.map((r) => r.content)).toEqual(["Never suggest properties outside the user's stated budget."]);
    expect(ctx.parts.profileFields?.missing).toEqual(FIELDS.map((f) => f.name));
    await expect(engram.setProfileSchema({ scope: SHARED, fields: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(engram.setProfileSchema({ scope: SHARED, fields: [{ name: 'a' }, { name: 'A' }] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('lists known fields with value and date and asks for the missing ones in the Markdown', async () => {
    const engram = await open();
    await engram.remember({
      scope: SHARED,
      layer: 'procedural',
      category: 'profile-schema',
      content: 'Store: budget range, location preferences, BHK requirement, floor preference.',
    });
    await engram.remember({ scope: ALICE, layer: 'semantic', content: 'My budget is 80L.', validFrom: Date.parse('2026-01-10') });
    await engram.remember({ scope: ALICE, layer: 'semantic', content: 'Location: Koramangala', validFrom: Date.parse('2026-01-12') });
    // names alone cannot tell whether "prefer" is about the location or the floor: it answers neither
    await engram.remember({ scope: ALICE, layer: 'semantic', content: 'I prefer a quiet street.' });
    const ctx = await engram.context({ scopes, message: 'Any new listings?', budgetMs: 5_000 });
    expect(ctx.parts.profileFields).toEqual({
      level: 'full',
      known: [
        { field: 'budget range', value: '80l', since: '2026-01-10T00:00:00.000Z', id: expect.any(String) },
        { field: 'location preferences', value: 'koramangala', since: '2026-01-12T00:00:00.000Z', id: expect.any(String) },
      ],
      missing: ['BHK requirement', 'floor preference'],
    });
    expect(ctx.markdown).toContain('## What to learn about the user');
    expect(ctx.markdown).toContain('- budget range: 80l (since 2026-01-10)');
    expect(ctx.markdown).toContain('- Still unknown — ask when natural: BHK requirement, floor preference');
    expect(ctx.parts.rules.items).toEqual([]);
    // without a schema, no part and no section
    const plain = await engram.context({ scopes: [ALICE], message: 'Any new listings?', budgetMs: 5_000 });
    expect(plain.parts.profileFields).toBeUndefined();
    expect(plain.markdown).not.toContain('What to learn');
  });

  it('exports the schema to schema.md and reads it back (round trip), and imports a hand-written schema.md', async () => {
    const engram = await open();
    await engram.setProfileSchema({ scope: SHARED, fields: FIELDS });
    await engram.remember({ scope: SHARED, layer: 'procedural', content: 'Always call memory_context before recommending.' });
    const files = await engram.exportMarkdown({ scope: SHARED });
    expect(Object.keys(files).sort()).toEqual(['concepts.md', 'log.md', 'procedural.md', 'profile.md', 'schema.md', 'semantic.md']);
    expect(files['schema.md']).toContain(
      '- location preferences: neighbourhoods or areas the user wants to live in (example: Koramangala, Indiranagar)',
    );
    expect(files['procedural.md']).not.toContain('budget range');
    const copy = await open();
    const report = await copy.importMarkdown(files, { scope: SHARED });
    expect(report.created).toBe(2);
    expect((await copy.profileSchema({ scopes: [SHARED] })).fields).toEqual(FIELDS);
    expect(await copy.exportMarkdown({ scope: SHARED })).toEqual(files);

    // a person adds a field by editing the text: the next context asks for it
    const edited = files['schema.md']!.replace(
      '- must-have amenities:',
      '- school distance: how far the nearest school may be (example: 2 km)\n  - must-have amenities:',
    );
    await copy.importMarkdown({ ...files, 'schema.md': edited }, { scope: SHARED });
    expect((await copy.profileSchema({ scopes: [SHARED] })).fields.map((f) => f.name)).toContain('school distance');

    const fresh = await open();
    await fresh.importMarkdown(
      { 'schema.md': '# Profile schema\n\n- Store: budget range, BHK requirement,\n  floor preference.\n' },
      { scope: SHARED },
    );
    expect((await fresh.profileSchema({ scopes: [SHARED] })).fields.map((f) => f.name)).toEqual([
      'budget range',
      'BHK requirement',
      'floor preference',
    ]);
    expect((await fresh.exportMarkdown({ scope: SHARED }))['schema.md']).toContain('Store: budget range');
  });
});

/** The HITL path: the assistant asks, the user answers, the captured answer fills the field. */
async function answerFillsField(engram: Engram): Promise<void> {
  await engram.setProfileSchema({ scope: SHARED, fields: FIELDS });
  const before = await engram.context({ scopes, message: 'Looking for a flat', budgetMs: 5_000 });
  expect(before.parts.profileFields?.missing).toContain('budget range');
  const turn = { scope: ALICE, capture: true, userScope: ALICE, tags: [] as string[] };
  await engram.remember({
    ...turn,
    content: "assistant: Happy to help you find a flat. What's your budget range?",
    tags: ['assistant'],
    source: { conversationId: 'c1', messageId: 'm1' },
  });
  // the answer arrives in a later write, as a hook stores each exchange
  const [answer] = await engram.remember([{ ...turn, content: 'user: around 80 lakh', source: { conversationId: 'c1', messageId: 'm2' } }]);
  expect(answer?.claims?.length).toBeGreaterThan(0);
  await engram.remember({
    ...turn,
    content: 'assistant: Which locations do you prefer?',
    tags: ['assistant'],
    source: { conversationId: 'c1', messageId: 'm3' },
  });
  await engram.remember({ ...turn, content: 'user: Koramangala or Indiranagar', source: { conversationId: 'c1', messageId: 'm4' } });
  const after = await engram.context({ scopes, message: 'Show me flats', budgetMs: 5_000 });
  const known = Object.fromEntries((after.parts.profileFields?.known ?? []).map((k) => [k.field, k.value]));
  expect(known).toEqual({ 'budget range': '80 lakh', 'location preferences': 'koramangala or indiranagar' });
  expect(after.parts.profileFields?.missing).toEqual(['BHK requirement', 'floor preference', 'must-have amenities']);
  expect(after.markdown).toContain('Still unknown — ask when natural: BHK requirement, floor preference, must-have amenities');
}

/** Runs `scenario` on a fresh store with the hash embedder, then with the real bge-small-en-v1.5 when installed. */
function withBothEmbedders(title: string, scenario: (engram: Engram) => Promise<void>): void {
  describe(title, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    it('with the hash embedder', async () => {
      const ctx = await tempEngram();
      cleanups.push(ctx.cleanup);
      await scenario(ctx.engram);
    });

    const cacheDir = resolveModelCacheDir(process.env, homedir());
    it.skipIf(!hasModelFiles(cacheDir, 'bge-small-en-v1.5'))('with the real bge-small-en-v1.5', { timeout: 120_000 }, async () => {
      const ctx = await tempEngram({ embedder: 'bge-small-en-v1.5', cacheDir });
      cleanups.push(ctx.cleanup);
      await scenario(ctx.engram);
    });
  });
}

withBothEmbedders('profile schema: answers captured through the HITL path fill their fields', answerFillsField);

/** [old, correction]: one profile slot, each side in another of its forms ("the user's X is", "X:", "the X is"). */
const SLOT_FORM_CORRECTIONS: [string, string][] = [
  ["The user's budget range is 80 lakh.", 'Budget range: 1 crore'],
  ['The budget range is around 80 lakh.', 'Budget: 1 crore'],
  ['Budget: 80L', 'The budget range is 1 crore.'],
  ["The user's budget range is 80 lakh.", 'My budget is 1 crore.'],
];

async function correctionInOtherFormSupersedes(engram: Engram): Promise<void> {
  await engram.setProfileSchema({ scope: SHARED, fields: FIELDS });
  for (const [i, [old, correction]] of SLOT_FORM_CORRECTIONS.entries()) {
    const scope = `acme/users/u${i}`;
    const first = await engram.remember({ scope, layer: 'semantic', content: old });
    const second = await engram.remember({ scope, layer: 'semantic', content: correction });
    expect({ correction, action: second.action, superseded: second.superseded }).toEqual({
      correction,
      action: 'superseded',
      superseded: [first.id],
    });
    const ctx = await engram.context({ scopes: [SHARED, scope], message: 'Show me flats', budgetMs: 5_000 });
    // one budget in the profile: the correction's
    expect(ctx.parts.profile.items.map((item) => item.content)).toEqual([correction]);
    expect(ctx.parts.profileFields?.known.find((k) => k.field === 'budget range')?.id).toBe(second.id);
  }
  // other slots that share the word stay beside it
  const scope = 'acme/users/other';
  const budget = await engram.remember({ scope, layer: 'semantic', content: 'Budget: 80L' });
  for (const other of ['Budget deadline: Friday', "Alice's budget range is 1 crore.", 'The marketing budget is 5 lakh.']) {
    expect((await engram.remember({ scope, layer: 'semantic', content: other })).action).toBe('created');
  }
  expect((await engram.get(budget.id, { scopes: [scope] })).status).toBe('active');
}

withBothEmbedders('profile schema: a correction worded in the other slot form supersedes', correctionInOtherFormSupersedes);
