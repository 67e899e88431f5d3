/**
 * Markdown written by a store without redaction and imported into one with it: nothing of a secret
 * reaches the importing store, neither through a trailer's edges (their metadata) nor through its
 * source key, which is made again from the redacted source as a write would make it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databaseText } from '../../helpers/database-bytes.js';
import { tempEngram } from '../../helpers/temp.js';

const SCOPE = 't/md';
const GITHUB = 'ghp_Rk5Nw9Tb2Yh6Mq0Vc3Xs7Jd1Lf4Pg8Za2Ue5';
const SECRET_TAIL = GITHUB.slice(4);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('Markdown import into a redacting store', () => {
  it('redacts edge metadata and the source key of trailers', async () => {
    const raw = await tempEngram({ redaction: { enabled: false } });
    cleanups.push(raw.cleanup);
    const source = { system: 'chat', conversationId: 'c-1', messageId: `m-${GITHUB}` };
    const bot = await raw.engram.remember({ scope: SCOPE, layer: 'semantic', content: `The CI bot pushes with ${GITHUB}`, source });
    const repo = await raw.engram.remember({ scope: SCOPE, layer: 'semantic', content: 'The shop repo lives on GitHub.' });
    await raw.engram.relate({ scope: SCOPE, from: bot.id, type: 'RELATED_TO', to: repo.id, metadata: { note: `uses ${GITHUB}` } });
    const files = await raw.engram.exportMarkdown({ scope: SCOPE });
    expect(JSON.stringify(files)).toContain(SECRET_TAIL);

    const target = await tempEngram();
    cleanups.push(target.cleanup);
    const report = await target.engram.importMarkdown(files, { scope: SCOPE });
    expect(report).toMatchObject({ created: 2, edges: 1 });
    const [edge] = await target.engram.store.getEdges({ scopes: [SCOPE], ids: [bot.id] });
    expect(JSON.stringify(edge?.metadata)).toContain('[redacted:github-token]');
    const [imported] = await target.engram.store.getMemories([bot.id], [SCOPE]);
    expect(imported?.sourceKey).toContain('[redacted:github-token]');
    // the same source remembered again is the same record, as it is for a source first written redacted
    const again = await target.engram.remember({ scope: SCOPE, layer: 'semantic', content: `The CI bot pushes with ${GITHUB}`, source });
    expect(again.id).toBe(bot.id);

    await target.engram.close();
    expect(databaseText(target.path).toLowerCase()).not.toContain(SECRET_TAIL.toLowerCase());
  });
});
