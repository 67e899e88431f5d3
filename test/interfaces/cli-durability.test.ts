/**
 * Durability of the embedded store: concurrent writer processes, and imports killed with SIGKILL.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { BIN, binBuilt, json, runCli, runCliAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe.skipIf(!binBuilt)('durability (skipped when dist/ is missing: run npm run build)', () => {
  const tmp = tempDir('engram-durable-');
  afterAll(() => tmp.cleanup());

  it('a write that exited left its data in the database file: a copy of it alone (no -wal, no -shm) holds the memory', async () => {
    const db = join(tmp.dir, 'folded.db');
    const written = runCli(['remember', '--db', db, '--embedder', 'hash', '--scope', 't/a', '--json', 'Alice lives in Lisbon']);
    expect(written.status, written.stderr).toBe(0);
    const { id } = json<{ id: string }>(written);
    // the clean close folded the log into the file and removed it
    expect(existsSync(`${db}-wal`)).toBe(false);
    const copy = join(tmp.dir, 'folded-copy.db');
    copyFileSync(db, copy);
    const got = runCli(['get', id, '--db', copy, '--scope', 't/a', '--json']);
    expect(got.status, got.stderr).toBe(0);
    expect(json<{ content: string }>(got).content).toBe('Alice lives in Lisbon');
  });

  it('4 processes each writing 500 memories to one file → 2,000 present, no errors', async () => {
    const db = join(tmp.dir, 'concurrent.db');
    // Create the file first so the four writers race on writes, not on the schema (reads do not create one).
    await (await Engram.open({ path: db, embedder: 'hash' })).close();
    const files = [0, 1, 2, 3].map((w) => {
      const file = join(tmp.dir, `writer-${w}.jsonl`);
      const lines = Array.from({ length: 500 }, (_, i) =>
        JSON.stringify({ content: `writer ${w} memory ${i}: the same sentence in many places` }),
      );
      writeFileSync(file, lines.join('\n'));
      return file;
    });
    const results = await Promise.all(
      files.map((file) =>
        runCliAsync(['remember', '--db', db, '--embedder', 'hash', '--json', '--scope', 't/c', '--file', file, '--batch-size', '5']),
      ),
    );
    for (const result of results) {
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
    }
    const stats = json<{ total: number }>(runCli(['stats', '--db', db, '--json', '--scope', 't/c']));
    expect(stats.total).toBe(2000);
  });

  it('an import killed with SIGKILL at 20 points loses no acknowledged write and re-runs without duplicates', async () => {
    const db = join(tmp.dir, 'killed.db');
    const file = join(tmp.dir, 'killed.jsonl');
    const total = 400;
    writeFileSync(
      file,
      Array.from({ length: total }, (_, i) =>
        JSON.stringify({ content: `killed import line ${i}`, layer: i % 2 === 0 ? 'episodic' : 'semantic' }),
      ).join('\n'),
    );
    const acknowledged = new Set<string>();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      // Kill after a varying number of acknowledged transactions (0 = as soon as the first ack arrives, or on a timer).
      const killAfterAcks = attempt % 5;
      const ids = await importUntilKilled(db, file, killAfterAcks, 15 + attempt * 7);
      for (const id of ids) acknowledged.add(id);
      // The hash embedder, as the imports use: a kill before the file exists must not leave it to the default model.
      const engram = await Engram.open({ path: db, embedder: 'hash' });
      try {
        const present = await engram.store.getMemories([...acknowledged], ['t/k']);
        expect(present.length, `attempt ${attempt}: acknowledged writes missing`).toBe(acknowledged.size);
      } finally {
        await engram.close();
      }
    }
    const final = runCli(['remember', '--db', db, '--embedder', 'hash', '--json', '--scope', 't/k', '--file', file, '--batch-size', '7']);
    expect(final.status, final.stderr).toBe(0);
    const stats = json<{ total: number }>(runCli(['stats', '--db', db, '--json', '--scope', 't/k']));
    expect(stats.total).toBe(total);
  }, 240_000);
});

/** Starts an import and SIGKILLs it after `acks` acknowledged transactions or `ms` milliseconds. */
function importUntilKilled(db: string, file: string, acks: number, ms: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      BIN,
      'remember',
      '--db',
      db,
      '--embedder',
      'hash',
      '--json',
      '--scope',
      't/k',
      '--file',
      file,
      '--batch-size',
      '7',
    ]);
    const ids: string[] = [];
    let buffer = '';
    let seen = 0;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, 400 + ms);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const parsed = JSON.parse(line) as { committed?: string[] };
        if (parsed.committed !== undefined) {
          ids.push(...parsed.committed);
          seen += 1;
          if (seen > acks) kill();
        }
        newline = buffer.indexOf('\n');
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(ids);
    });
  });
}
