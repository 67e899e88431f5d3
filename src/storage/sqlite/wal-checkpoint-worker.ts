/**
 * Worker-thread entry of the WAL checkpoint thread (`wal-checkpointer.ts`): its own read-write
 * connection to the database file, which runs a PASSIVE checkpoint (it waits for no reader or writer)
 * whenever the parent asks. Requests and results go through shared memory (`CheckpointSlots`), not
 * messages: a writer in a tight loop of commits may not turn its event loop for seconds, and must still
 * see each checkpoint's result and ask for the next. This module does its work on load: it is an entry
 * point.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { CheckpointSlots, CheckpointState } from './wal-checkpoint-slots.js';

const { path, shared } = workerData as { path: string; shared: SharedArrayBuffer };
const slots = new Int32Array(shared);
const db = new Database(path, { fileMustExist: true });
// never wait for the lock: a checkpoint already running (the writer's backstop, another process's) answers busy
db.pragma('busy_timeout = 0');
// as the writer: the log is synced before its pages are copied, the database file after
db.pragma('synchronous = NORMAL');

for (;;) {
  Atomics.wait(slots, CheckpointSlots.state, CheckpointState.idle);
  const state = Atomics.exchange(slots, CheckpointSlots.state, CheckpointState.idle);
  if (state === CheckpointState.closing) break;
  if (state !== CheckpointState.requested) continue;
  Atomics.store(slots, CheckpointSlots.running, 1);
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (row !== undefined && row.busy !== 0) Atomics.add(slots, CheckpointSlots.busy, 1);
    else {
      Atomics.store(slots, CheckpointSlots.log, row?.log ?? 0);
      Atomics.store(slots, CheckpointSlots.checkpointed, row?.checkpointed ?? 0);
      Atomics.add(slots, CheckpointSlots.checkpoints, 1);
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') Atomics.add(slots, CheckpointSlots.busy, 1);
    else {
      Atomics.add(slots, CheckpointSlots.errors, 1);
      // the reason, for the parent's usage figures (read whenever its event loop turns)
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  }
  Atomics.store(slots, CheckpointSlots.running, 0);
}
db.close();
