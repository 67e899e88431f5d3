/** What the Markdown export/import tests share: engines closed after each test, and a scope's records. */
import { afterEach } from 'vitest';
import type { Engram } from '../../src/index.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import { tempEngram } from './temp.js';

/** An `open()` whose engines (temporary SQLite files) are closed and removed after each test. */
export function enginesClosedAfterEach(): () => Promise<Engram> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return async () => {
    const t = await tempEngram();
    cleanups.push(t.cleanup);
    return t.engram;
  };
}

/** Every record of `scope`, whatever its status. */
export function everything(engram: Engram, scope: string): Promise<MemoryRecord[]> {
  return engram.store.listMemories({ scopes: [scope], limit: 10_000 });
}
