/**
 * A Chinese store on the real bge-small-zh-v1.5 (`engram models pull bge-small-zh-v1.5`): the model is
 * chosen per store and kept on reopen, and recall finds Chinese memories by meaning where the query
 * shares few characters with them. Skips, naming why, when the model is not in the cache (.ci/run must
 * pull it: its pull takes about 90 s, too long for scripts/ci-models.sh's default list).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { tempDir } from '../helpers/temp.js';

const cacheDir = resolveModelCacheDir(process.env, homedir());
const missing = hasModelFiles(cacheDir, 'bge-small-zh-v1.5')
  ? ''
  : ` (skipped: bge-small-zh-v1.5 is not in ${cacheDir}; run "engram models pull bge-small-zh-v1.5")`;

/** Chinese memories and a paraphrase query for each, in mostly different words. */
const PAIRS: ReadonlyArray<readonly [memory: string, query: string]> = [
  ['我对花生过敏，吃了会起疹子。', '哪些坚果我不能碰？'],
  ['我每天早上六点起床去跑步。', '我一般什么时候晨练？'],
  ['服务器的数据库每天凌晨两点自动备份。', '数据什么时间做存档？'],
  ['我们计划明年春天去日本看樱花。', '明年有什么出国赏花的打算？'],
  ['我妈妈有高血压，每天要吃降压药。', '母亲需要长期服用什么药？'],
  ['我的车是一辆白色的特斯拉。', '我开什么牌子的汽车？'],
  ['我怕坐飞机，长途旅行更喜欢坐高铁。', '出远门我选择哪种交通工具？'],
  ['上周会议决定把服务迁移到阿里云。', '系统要搬到哪家云厂商？'],
];

describe.skipIf(missing !== '')(`a Chinese store on bge-small-zh-v1.5${missing}`, () => {
  it('keeps the model chosen for the store, and finds memories by meaning', async () => {
    const temp = tempDir();
    const path = join(temp.dir, 'zh.db');
    try {
      const engram = await Engram.open({ path, embedder: 'onnx:bge-small-zh-v1.5', cacheDir });
      await engram.remember(PAIRS.map(([content]) => ({ scope: 'acme/zh', content })));
      await engram.close();

      const reopened = await Engram.open({ path, cacheDir });
      try {
        expect((await reopened.stats({ scopes: ['acme/zh'] })).embedder).toMatch(/^onnx:bge-small-zh-v1\.5:512:[0-9a-f]{8}$/);
        let first = 0;
        let semantic = 0;
        for (const [memory, query] of PAIRS) {
          const { hits } = await reopened.recall(query, { scopes: ['acme/zh'], k: 3 });
          if (hits[0]?.content === memory) first++;
          // the semantic channel alone, so the lexical words shared cannot carry it
          const dense = await reopened.recall(query, { scopes: ['acme/zh'], k: 1, weights: { lexical: 0, entity: 0 } });
          if (dense.hits[0]?.content === memory) semantic++;
        }
        expect(first).toBeGreaterThanOrEqual(PAIRS.length - 1);
        expect(semantic).toBeGreaterThanOrEqual(PAIRS.length - 1);
      } finally {
        await reopened.close();
      }
    } finally {
      temp.cleanup();
    }
  }, 120_000);
});
