/**
 * Chinese statements carry claim slots (chinese-rules.ts), so a Chinese correction supersedes a Chinese
 * statement: "我搬到上海了" replaces "我住在北京", "预算改成100万了" replaces "我的预算是80万". Cross-language
 * supersession (a Chinese correction of an English statement) is out of scope.
 */
import { homedir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { analyzeClaim, compareClaims } from '../../../src/core/write/claims/index.js';
import { CHINESE_RULES } from '../../../src/core/write/claims/chinese-rules.js';
import { tempEngram } from '../../helpers/temp.js';

/** [old, correction] in Chinese: location, workplace, role, a possessed attribute, negation. */
const CORRECTIONS: readonly (readonly [string, string])[] = [
  ['我住在北京。', '我搬到上海了。'],
  ['我住在北京', '我现在在上海住'],
  ['我住在北京', '我不再住在北京了'],
  ['我的预算是80万', '预算改成100万了'],
  ['我在谷歌工作', '我跳槽到腾讯了'],
  ['我在谷歌工作', '我不在谷歌上班了'],
  ['我当老师', '我现在做程序员'],
  ['张伟的经理是李娜', '张伟的经理现在是王芳'],
];

/** [old, new]: about something else, or the same said again. */
const NOT_CORRECTIONS: readonly (readonly [string, string, 'agrees' | 'other'])[] = [
  ['我住在北京', '我住在北京。', 'agrees'],
  ['我的预算是80万', '我的预算是80万', 'agrees'],
  ['我住在北京', '我的预算是80万', 'other'],
  ['我在谷歌工作', '我住在北京', 'other'],
  ['张伟的经理是李娜', '我的经理是王芳', 'other'],
  ['我的预算是80万', '我的截止日期是周五', 'other'],
];

describe('Chinese claim rules', () => {
  it.each(CHINESE_RULES.flatMap((rule) => rule.examples.map((example) => [rule.name, example] as const)))(
    'rule %s reads its example',
    (name, example) => {
      const [first] = analyzeClaim(example.text).slots;
      expect(first?.rule).toBe(name);
      expect(first).toMatchObject({ ...example.slot, negated: example.slot.negated ?? false });
    },
  );

  it('a bare "我是…" names no attribute', () => {
    expect(analyzeClaim('我是程序员').slots.filter((s) => s.rule === 'zh-attribute')).toEqual([]);
  });
});

describe('compareClaims: Chinese corrections', () => {
  it.each(CORRECTIONS)('"%s" is superseded by "%s"', (old, correction) => {
    expect(compareClaims(correction, old).relation).toBe('supersedes');
  });

  it.each(NOT_CORRECTIONS)('"%s" is not superseded by "%s"', (old, next, expected) => {
    const relation = compareClaims(next, old).relation;
    if (expected === 'agrees') expect(relation).toBe('agrees');
    else expect(['compatible', 'unrelated']).toContain(relation);
  });
});

async function writePairs(engram: Engram): Promise<string[]> {
  const out: string[] = [];
  let i = 0;
  for (const [old, correction] of CORRECTIONS) {
    const scope = `me/zh-${i++}`;
    const first = await engram.remember({ scope, layer: 'semantic', content: old });
    const second = await engram.remember({ scope, layer: 'semantic', content: correction });
    const current = await engram.list({ scopes: [scope], statuses: ['active'], limit: 10 });
    out.push(`${second.superseded?.includes(first.id) === true}:${current.items.map((m) => m.content).join('|')}`);
    expect(await engram.get(second.id, { scopes: [scope] })).toHaveProperty('claim');
  }
  return out;
}

const DEFAULT = DEFAULT_ONNX_MODEL;
const defaultInstalled = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT);

describe('write path: a Chinese correction supersedes (hash embedder, SQLite file)', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  beforeEach(async () => {
    ctx = await tempEngram();
  });
  afterEach(async () => ctx.cleanup());

  it('the old statement leaves current reads', async () => {
    expect(await writePairs(ctx.engram)).toEqual(CORRECTIONS.map(([, correction]) => `true:${correction}`));
  });

  it('captured turns carry their claims too (a Chinese sentence has no spaces to count words by)', async () => {
    const scope = 'zh/capture';
    const first = await ctx.engram.remember({ scope, content: '我住在北京', capture: true });
    const second = await ctx.engram.remember({ scope, content: '我搬到上海了', capture: true });
    expect([first.claims?.length, second.claims?.length]).toEqual([1, 1]);
    const current = await ctx.engram.store.listMemories({ scopes: [scope], layers: ['semantic'], statuses: ['active'], limit: 10 });
    expect(current.map((r) => r.content)).toEqual(['我搬到上海了.']);
  });
});

describe.skipIf(!defaultInstalled && process.env.CI !== 'true')(`write path: a Chinese correction supersedes (${DEFAULT})`, () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  beforeEach(async () => {
    ctx = await tempEngram({ embedder: DEFAULT as 'blend-e5-minilm', workers: 1 });
  }, 120_000);
  afterEach(async () => ctx.cleanup());

  it('the old statement leaves current reads', async () => {
    expect(await writePairs(ctx.engram)).toEqual(CORRECTIONS.map(([, correction]) => `true:${correction}`));
  }, 120_000);
});
