/**
 * User JSON is redacted whatever its keys are called: a secret under `id`, `kind`, `status`, `scope`,
 * `layer`, `parentId` or `derivedFrom` inside properties, action args or edge metadata is a secret like
 * any other, on the write path and for `redact`. Only a remember input's own scope and layer stay as given.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { databaseText } from '../../helpers/database-bytes.js';
import { tempEngram } from '../../helpers/temp.js';

const SCOPE = 't/keys';
const GITHUB = 'ghp_Wm4Tq8Zr2Xv6Bn0Lk3Hj7Gf5Ds9Pa1Qe4Ru8';
const STRIPE = 'sk_live_Pq3Wm8Zx2Rv6Tn0Yk4Hb7Lc5F';
const NPM = 'npm_Xk7Qp2Lm9Rv4Tz1Wb6Hc3Jd8Fn5Gs0Ya2Ue7';
const SECRETS = [GITHUB, STRIPE, NPM];
const ADDRESS_NAMES = ['id', 'kind', 'status', 'scope', 'layer', 'parentId', 'derivedFrom'];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Every address-like key, each holding a secret (in a sentence or alone). */
function addressed(): Record<string, unknown> {
  return Object.fromEntries(ADDRESS_NAMES.map((key, i) => [key, i % 2 === 0 ? SECRETS[i % 3] : `token ${SECRETS[i % 3]}`]));
}

/** Writes the secrets under address-like keys in properties, action args (nested) and edge metadata. */
async function writeUnderAddressKeys(engram: Engram): Promise<{ ids: string[]; redacted: number }> {
  const fact = await engram.remember({
    scope: SCOPE,
    layer: 'semantic',
    content: 'CI credentials for the deploy bot are registered.',
    properties: addressed(),
  });
  const episode = await engram.remember({
    scope: SCOPE,
    layer: 'episodic',
    content: 'Called the deploy API from the runner.',
    action: { tool: 'http', args: { id: GITHUB, headers: { kind: STRIPE, list: [{ status: NPM }] } } },
  });
  await engram.relate({ scope: SCOPE, from: fact.id, type: 'RELATED_TO', to: episode.id, metadata: addressed() });
  return { ids: [fact.id, episode.id], redacted: (fact.redacted ?? 0) + (episode.redacted ?? 0) };
}

describe('secrets under address-like keys of user JSON', () => {
  it('are redacted on the write path: properties, nested action args, edge metadata; the scope and layer stay', async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    const { ids, redacted } = await writeUnderAddressKeys(t.engram);
    expect(redacted).toBe(ADDRESS_NAMES.length + 3);
    const [fact, episode] = await t.engram.store.getMemories(ids, [SCOPE]);
    expect(fact).toMatchObject({ scope: SCOPE, layer: 'semantic' });
    expect(episode).toMatchObject({ scope: SCOPE, layer: 'episodic' });
    const properties = fact?.data.properties as Record<string, string>;
    expect(Object.keys(properties).sort()).toEqual([...ADDRESS_NAMES].sort());
    for (const value of Object.values(properties)) expect(value).toMatch(/\[redacted:[a-z-]+\]$/);
    const edges = await t.engram.edges(ids[0] as string, { scopes: [SCOPE] });
    const reads = JSON.stringify([fact, episode, edges]);
    for (const secret of SECRETS) expect(reads).not.toContain(secret);
    await t.engram.close();
    const bytes = databaseText(t.path);
    for (const secret of SECRETS) expect(bytes).not.toContain(secret);
  });

  it('are cleaned by redact on a store written without redaction', async () => {
    const raw = await tempEngram({ redaction: { enabled: false } });
    cleanups.push(raw.cleanup);
    const { ids } = await writeUnderAddressKeys(raw.engram);
    for (const secret of SECRETS) expect(JSON.stringify(await raw.engram.store.getMemories(ids, [SCOPE]))).toContain(secret);
    const report = await raw.engram.redact({ scopes: [SCOPE] });
    expect(report.records).toBe(2);
    expect(report.edges).toBe(1);
    expect(report.redacted).toBe(2 * ADDRESS_NAMES.length + 3);
    expect(await raw.engram.redact({ scopes: [SCOPE] })).toMatchObject({ records: 0, edges: 0, redacted: 0 });
    await raw.engram.close();
    const bytes = databaseText(raw.path);
    for (const secret of SECRETS) expect(bytes).not.toContain(secret);
  });
});
