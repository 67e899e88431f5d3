/**
 * Two servers of one database: the second leaves the first one's discovery file alone (and does not
 * remove it when it exits), so the hooks keep finding the first; a file naming a process that is gone
 * is replaced. The "other server" is a real live process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discoveryPath,
  processStartOf,
  readDiscovery,
  removeDiscovery,
  writeDiscovery,
  type ServerInfo,
} from '../../src/interfaces/hooks/discovery.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A live process standing for another `engram serve`; killed after the test. */
function otherProcess(): ChildProcess & { exited: Promise<void> } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  return Object.assign(child, { exited });
}

function serverInfo(db: string, pid: number, port: number): ServerInfo {
  return { url: `http://127.0.0.1:${port}`, pid, db, startedAt: new Date().toISOString(), hookToken: `token-${port}` };
}

describe('the discovery file of two servers on one database', () => {
  it('names the first while it runs; the second neither overwrites nor removes it', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const db = join(dir, 'engram.db');
    const first = otherProcess();
    const firstInfo = serverInfo(db, first.pid!, 17191);
    expect(writeDiscovery(firstInfo)).toEqual({ path: discoveryPath(db), advertised: true });

    const second = serverInfo(db, process.pid, 17192);
    expect(writeDiscovery(second)).toEqual({ path: discoveryPath(db), advertised: false, holder: firstInfo });
    expect(readDiscovery(db)).toEqual(firstInfo);
    removeDiscovery(db, process.pid); // the second exits
    expect(readDiscovery(db)).toEqual(firstInfo);
    // the first one rewriting its own file (same pid) is allowed
    expect(writeDiscovery(firstInfo).advertised).toBe(true);
    expect(readdirSync(dir)).toEqual(['engram.db.serve.json']);
  });

  it('is replaced when it names a process that is gone, and removed by the server it names', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const db = join(dir, 'engram.db');
    const gone = otherProcess();
    writeDiscovery(serverInfo(db, gone.pid!, 17193));
    gone.kill('SIGKILL');
    await gone.exited;
    expect(readDiscovery(db)).toBeNull();

    const next = serverInfo(db, process.pid, 17194);
    expect(writeDiscovery(next)).toEqual({ path: discoveryPath(db), advertised: true });
    expect(readDiscovery(db)).toEqual(next);
    removeDiscovery(db, process.pid);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(!existsSync('/proc/self/stat'))(
    'is taken over when its pid is alive but was taken by another process (not the server that wrote it)',
    async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const db = join(dir, 'engram.db');
      // a server that died left its file; its pid now belongs to a process that is no Engram server
      const server = otherProcess();
      const stale: ServerInfo = { ...serverInfo(db, server.pid!, 17195), processStart: processStartOf(server.pid!)! };
      expect(stale.processStart).toBeDefined();
      expect(writeDiscovery(stale).advertised).toBe(true);
      server.kill('SIGKILL');
      await server.exited;
      // a process start time counts clock ticks (10 ms): the next process must start in a later tick
      await new Promise((resolve) => setTimeout(resolve, 50));
      const sleeper = spawn('sleep', ['120'], { stdio: 'ignore' });
      const slept = new Promise<void>((resolve) => sleeper.once('exit', () => resolve()));
      cleanups.push(async () => {
        sleeper.kill('SIGKILL');
        await slept;
      });
      expect(processStartOf(sleeper.pid!)).not.toBe(stale.processStart);
      writeFileSync(discoveryPath(db), `${JSON.stringify({ ...stale, pid: sleeper.pid })}\n`, { mode: 0o600 });
      expect(() => process.kill(sleeper.pid!, 0)).not.toThrow();

      expect(readDiscovery(db)).toBeNull();
      const next: ServerInfo = { ...serverInfo(db, process.pid, 17196), processStart: processStartOf(process.pid)! };
      expect(writeDiscovery(next)).toEqual({ path: discoveryPath(db), advertised: true });
      expect(readDiscovery(db)).toEqual(next);
      // while its own process runs, the server that wrote the file keeps it
      const third = serverInfo(db, 1, 17197);
      expect(writeDiscovery({ ...third, pid: sleeper.pid! })).toEqual({ path: discoveryPath(db), advertised: false, holder: next });
    },
  );
});
