/**
 * Values written in Chinese, Japanese, Cyrillic or as emoji: a correction to such a value is a different
 * value, not a restatement. Value words used to be Latin letters only, so two non-Latin values both read
 * as no words and compared as the same: "I moved to 上海" was merged into "I live in 北京".
 */
import { homedir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { compareClaims } from '../../../src/core/write/claims/index.js';
import { makeSlot } from '../../../src/core/write/claims/extracted-slot.js';
import { sameSubject, valueRelation } from '../../../src/core/write/claims/slot-matching.js';
import { tempEngram } from '../../helpers/temp.js';

/** [old, correction]: the same slot, another value, in a script other than Latin. */
const CORRECTIONS: readonly (readonly [string, string])[] = [
  ['I live in 北京.', 'I moved to 上海.'],
  ['I live in 北京.', 'I live in 上海.'],
  ['My manager is 张伟.', 'My manager is 李娜.'],
  ['My favourite dish is 麻婆豆腐.', 'My favourite dish is 北京烤鸭.'],
  ['I live in Киев.', 'I moved to Москва.'],
  ['Our office is in 東京.', 'Our office moved to 大阪.'],
  ['My favourite fruit is 🍎.', 'My favourite fruit is 🍌.'],
];

/** [old, restatement]: the same value said again. */
const RESTATEMENTS: readonly (readonly [string, string])[] = [
  ['I live in 北京.', 'I live in 北京.'],
  ['My manager is 张伟.', 'My manager is 张伟.'],
  ['I live in Москва.', 'I live in Москва.'],
];

const DEFAULT = DEFAULT_ONNX_MODEL;
const defaultInstalled = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT);

describe('compareClaims: values in any script', () => {
  it.each(CORRECTIONS)('"%s" is corrected by "%s", not restated', (old, correction) => {
    const result = compareClaims(correction, old);
    expect(result.relation).toBe('supersedes');
    expect(result.reason).not.toMatch(/restates/);
  });

  it.each(RESTATEMENTS)('"%s" said again agrees', (old, again) => {
    expect(compareClaims(again, old).relation).toBe('agrees');
  });

  it('two values without a word to compare by are not the same value', () => {
    // nothing to compare by decides nothing: unknown, never the same
    const slot = (value: string) => makeSlot({ subject: '', attribute: 'manager', value, cardinality: 'single', rule: 'test' });
    expect(valueRelation(slot('§'), slot('¶'))).toBe('unknown');
    expect(valueRelation(slot('張偉'), slot('李娜'))).toBe('different');
  });

  it('subjects without a word to compare by are one subject only when written alike', () => {
    expect(sameSubject('', '')).toBe(true);
    expect(sameSubject('张伟', '李娜')).toBe(false);
    expect(sameSubject('§', '¶')).toBe(false);
  });
});

async function writePairs(engram: Engram): Promise<{ corrections: string[]; restatements: string[] }> {
  const corrections: string[] = [];
  const restatements: string[] = [];
  let i = 0;
  for (const [old, correction] of CORRECTIONS) {
    const scope = `me/scripts-${i++}`;
    const first = await engram.remember({ scope, layer: 'semantic', content: old });
    const second = await engram.remember({ scope, layer: 'semantic', content: correction });
    const current = await engram.list({ scopes: [scope], statuses: ['active'], limit: 10 });
    corrections.push(`${second.action}:${second.superseded?.includes(first.id) === true}:${current.items.map((m) => m.content).join('|')}`);
  }
  for (const [old, again] of RESTATEMENTS) {
    const scope = `me/scripts-${i++}`;
    const first = await engram.remember({ scope, layer: 'semantic', content: old });
    const second = await engram.remember({ scope, layer: 'semantic', content: again });
    restatements.push(`${second.action}:${second.id === first.id}`);
  }
  return { corrections, restatements };
}

function expectSuperseded(results: { corrections: string[]; restatements: string[] }): void {
  CORRECTIONS.forEach(([, correction], i) => {
    // superseded, the old one out of current reads, only the correction left
    expect(results.corrections[i]).toBe(`superseded:true:${correction}`);
  });
  for (const r of results.restatements) expect(r).toBe('merged:true');
}

describe('write path: corrections in any script supersede (hash embedder, SQLite file)', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  beforeEach(async () => {
    ctx = await tempEngram();
  });
  afterEach(async () => ctx.cleanup());

  it('supersedes the old value and merges a restatement', async () => {
    expectSuperseded(await writePairs(ctx.engram));
  });
});

describe.skipIf(!defaultInstalled && process.env.CI !== 'true')(`write path: corrections in any script (${DEFAULT})`, () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  beforeEach(async () => {
    ctx = await tempEngram({ embedder: DEFAULT as 'blend-e5-minilm', workers: 1 });
  }, 120_000);
  afterEach(async () => ctx.cleanup());

  it('supersedes the old value and merges a restatement', async () => {
    expectSuperseded(await writePairs(ctx.engram));
  }, 120_000);
});
