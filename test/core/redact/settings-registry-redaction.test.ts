/**
 * Secret redaction on the write paths beside `remember`: the persona and the profile schema (their
 * reasons, favours, fields), the relation registry (`registerRelation`, and `redact` cleaning a
 * tenant's registered types), and the MCP memory graph importer's relation types. Each uses the
 * engine's redactor (so `redaction: { enabled: false }` stores text as it comes) on a real SQLite file.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../../src/index.js';
import { applyImport, exportMcpMemory, mcpMemoryUnit } from '../../../src/portability/importers/index.js';
import { tempDir, tempEngram } from '../../helpers/temp.js';

const SCOPE = 't/sec';
/** A synthetic GitHub token (the right format, random characters). */
const TOKEN = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const TAIL = TOKEN.slice(4).toLowerCase();
/** A synthetic AWS access key id. */
const AWS = 'AKIAQ7WXK2LMN9PR4ST6';

/** Everything stored in the scope, lower-cased: records of any status, their edges, the export, the registry. */
async function stored(engram: Engram, scope = SCOPE): Promise<string> {
  const records = await engram.store.listMemories({ scopes: [scope], limit: 500 });
  const edges = await engram.store.getEdges({ scopes: [scope], ids: records.map((r) => r.id) });
  const parts = [
    JSON.stringify(records),
    JSON.stringify(edges),
    JSON.stringify(await engram.exportMarkdown({ scope })),
    JSON.stringify(await engram.relations({ scopes: [scope] })),
  ];
  return parts.join('\n').toLowerCase();
}

describe('redaction beside remember', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  async function open(enabled = true): Promise<Engram> {
    const site = await tempEngram(enabled ? {} : { redaction: { enabled: false } });
    cleanup = site.cleanup;
    return site.engram;
  }

  it('a persona version stored without redaction is redacted when revert restores it', async () => {
    const { dir, cleanup: remove } = tempDir();
    const path = join(dir, 'engram.db');
    const raw = await Engram.open({ path, embedder: 'hash', redaction: { enabled: false } });
    cleanup = async () => {
      await raw.close();
      remove();
    };
    const old = await raw.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.8 }, favours: { curiosity: { tags: [TOKEN] } } });
    await raw.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.2 } });
    await raw.close();
    const engram = await Engram.open({ path, embedder: 'hash' });
    cleanup = async () => {
      await engram.close();
      remove();
    };
    const restored = await engram.revertPersona({ scope: SCOPE, to: old.id });
    expect(restored.persona).toEqual({ dispositions: { curiosity: 0.8 }, favours: { curiosity: { tags: ['[redacted:github-token]'] } } });
    expect((await engram.store.getMemories([restored.id], [SCOPE]))[0]?.content).not.toContain(TOKEN);
  });

  it('setPersona and revertPersona redact the reason and the favours (history, edges, Markdown export)', async () => {
    const engram = await open();
    await engram.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.5 } });
    const set = await engram.setPersona({
      scope: SCOPE,
      dispositions: { curiosity: 0.8 },
      favours: { curiosity: { tags: [TOKEN, 'ml'] } },
      reason: `GITHUB_TOKEN=${TOKEN}`,
    });
    expect(set.change.reason).toBe('GITHUB_TOKEN=[redacted:github-token]');
    expect(set.persona.favours?.curiosity?.tags).toEqual(['[redacted:github-token]', 'ml']);
    const reverted = await engram.revertPersona({ scope: SCOPE, reason: `rolled back, token ${TOKEN}` });
    expect(reverted.change.reason).toBe('rolled back, token [redacted:github-token]');
    const history = await engram.personaHistory({ scope: SCOPE });
    expect(history).toHaveLength(3);
    // the redacted persona still reads back from its record
    expect((await engram.persona({ scopes: [SCOPE] }))?.persona.dispositions).toEqual({ curiosity: 0.5 });
    const text = `${await stored(engram)}\n${JSON.stringify(history).toLowerCase()}`;
    expect(text).not.toContain(TAIL);
    expect(text).toContain('[redacted:github-token]');
  });

  it('setPersona refuses a disposition named by a secret, and stores text as it comes with redaction off', async () => {
    const engram = await open();
    await expect(engram.setPersona({ scope: SCOPE, dispositions: { [TOKEN]: 0.8 } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('github-token'),
    });
    await expect(
      engram.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.8 }, favours: { [TOKEN]: { tags: ['ml'] } } }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await stored(engram)).not.toContain(TAIL);
    await cleanup?.();

    const raw = await open(false);
    const set = await raw.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.8 }, reason: `GITHUB_TOKEN=${TOKEN}` });
    expect(set.change.reason).toBe(`GITHUB_TOKEN=${TOKEN}`);
  });

  it('setProfileSchema redacts field descriptions, examples and the reason; a field named by a secret is refused', async () => {
    const engram = await open();
    const view = await engram.setProfileSchema({
      scope: SCOPE,
      fields: [
        { name: 'ci token', description: `GITHUB_TOKEN=${TOKEN}` },
        { name: 'deploy key', example: TOKEN },
      ],
      reason: `copied from ${TOKEN}`,
    });
    expect(view.fields).toEqual([
      { name: 'ci token', description: 'GITHUB_TOKEN=[redacted:github-token]' },
      { name: 'deploy key', example: '[redacted:github-token]' },
    ]);
    // the text form (the source of truth schema.md shows) reads back to the same fields
    expect((await engram.profileSchema({ scopes: [SCOPE] })).fields).toEqual(view.fields);
    const text = await stored(engram);
    expect(text).not.toContain(TAIL);
    expect(text).toContain('ci token: github_token=[redacted:github-token]');

    await expect(engram.setProfileSchema({ scope: SCOPE, fields: [{ name: TOKEN }] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('github-token'),
    });
    expect(await stored(engram)).not.toContain(TAIL);
  });

  it('registerRelation redacts the description and proposer, refuses a name holding a secret, and respects redaction off', async () => {
    const engram = await open();
    const type = await engram.registerRelation({
      scope: SCOPE,
      name: 'DEPLOYS_WITH',
      description: `GITHUB_TOKEN=${TOKEN}`,
      proposedBy: `agent ${TOKEN}`,
    });
    expect(type).toMatchObject({ description: 'GITHUB_TOKEN=[redacted:github-token]', proposedBy: 'agent [redacted:github-token]' });
    await expect(engram.registerRelation({ scope: SCOPE, name: `pushes with ${TOKEN}` })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('PUSHES_WITH_GITHUB_TOKEN'),
    });
    // as a name is stored: upper case, words joined by "_"
    for (const name of [`PUSHES_WITH_${TOKEN.toUpperCase()}`, `KEY_${AWS}`])
      await expect(engram.registerRelation({ scope: SCOPE, name })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const text = await stored(engram);
    expect(text).not.toContain(TAIL);
    expect(text).toContain('github_token=[redacted:github-token]');
    await cleanup?.();

    const raw = await open(false);
    expect(await raw.registerRelation({ scope: SCOPE, name: 'DEPLOYS_WITH', description: `GITHUB_TOKEN=${TOKEN}` })).toMatchObject({
      description: `GITHUB_TOKEN=${TOKEN}`,
    });
  });

  it("redact cleans the registered relation types of the scope's tenant, counts them, and reports a name holding a secret", async () => {
    const engram = await open(false);
    await engram.registerRelation({ scope: SCOPE, name: 'DEPLOYS_WITH', description: `GITHUB_TOKEN=${TOKEN}` });
    await engram.registerRelation({ scope: SCOPE, name: `pushes with ${TOKEN}`, description: `pushes with ${TOKEN}` });
    await engram.registerRelation({ scope: SCOPE, name: `key ${AWS}` });
    await engram.registerRelation({ scope: 'other/x', name: 'KEEPS', description: `GITHUB_TOKEN=${TOKEN}` });
    expect(await stored(engram)).toContain(TAIL);

    const dry = await engram.redact({ scopes: [SCOPE], dryRun: true });
    expect(dry).toMatchObject({ records: 0, relationTypes: 2, redacted: 2, kinds: { 'github-token': 2 } });
    expect(dry.relationNames).toEqual(['KEY_[redacted:aws-access-key]', 'PUSHES_WITH_[redacted:github-token]']);
    expect(await stored(engram)).toContain(TAIL);

    const report = await engram.redact({ scopes: [SCOPE] });
    expect(report).toMatchObject({ dryRun: false, relationTypes: 2, redacted: 2, relationNames: dry.relationNames });
    const types = await engram.relations({ scopes: [SCOPE] });
    expect(types.find((t) => t.name === 'DEPLOYS_WITH')?.description).toBe('GITHUB_TOKEN=[redacted:github-token]');
    // the name is not renamed (edges and callers use it): it is reported, redacted, every run
    expect(types.filter((t) => t.tenant === 't').map((t) => t.description)).toEqual([
      'GITHUB_TOKEN=[redacted:github-token]',
      null,
      'pushes with [redacted:github-token]',
    ]);
    expect(await engram.redact({ scopes: [SCOPE] })).toMatchObject({ relationTypes: 0, redacted: 0, relationNames: dry.relationNames });
    // another tenant's registry is not the scope's
    expect((await engram.relations({ scopes: ['other/x'] })).find((t) => t.name === 'KEEPS')?.description).toContain(TOKEN);
  });

  it('import mcp-memory redacts a secret in a relation type everywhere it is stored and writes the graph', async () => {
    const engram = await open();
    const graph = [
      { type: 'entity', name: 'Bob', entityType: 'person', observations: ['Bob deploys on Fridays'] },
      { type: 'entity', name: 'Repo', entityType: 'repository', observations: ['Repo is the monorepo'] },
      { type: 'relation', from: 'Bob', to: 'Repo', relationType: `pushes with ${TOKEN}` },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const at = Date.parse('2024-01-01T00:00:00Z');
    const report = await applyImport(engram, 'mcp-memory', [mcpMemoryUnit(graph, { scope: 't/mcp', defaultTime: at })]);
    expect(report.memories.created).toBe(4);
    expect(report.edges.created).toBe(3);
    expect(report.registeredTypes).toEqual(['PUSHES_WITH_GITHUB_TOKEN']);
    expect(report.redacted).toBe(2);
    expect(report.skipped).toEqual([]);
    const text = await stored(engram, 't/mcp');
    expect(text).not.toContain(TAIL);
    expect(text).toContain('pushes with [redacted:github-token]');
    const exported = await exportMcpMemory(engram.store, 't/mcp');
    expect(exported.lines.join('\n')).not.toContain(TOKEN.slice(4));
    expect(exported.lines.join('\n')).toContain('"relationType":"pushes with [redacted:github-token]"');
    // importing it again finds the type and the edge already there
    const again = await applyImport(engram, 'mcp-memory', [mcpMemoryUnit(graph, { scope: 't/mcp', defaultTime: at })]);
    expect(again).toMatchObject({ registeredTypes: [], edges: { created: 0, existing: 3 } });
    await cleanup?.();

    // with redaction off the type is named as the source spells it
    const raw = await open(false);
    const unredacted = await applyImport(raw, 'mcp-memory', [mcpMemoryUnit(graph, { scope: 't/mcp', defaultTime: at })]);
    expect(unredacted).toMatchObject({ registeredTypes: [`PUSHES_WITH_${TOKEN.toUpperCase()}`], redacted: 0, edges: { created: 3 } });
  });
});
