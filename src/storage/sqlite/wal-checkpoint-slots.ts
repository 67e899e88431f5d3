/**
 * The shared memory between the WAL checkpointer (`wal-checkpointer.ts`) and its thread
 * (`wal-checkpoint-worker.ts`): one `Int32Array` of `CheckpointSlots.length` slots.
 */

/** The slots of the shared `Int32Array` (see `wal-checkpointer.ts`). */
export const CheckpointSlots = {
  /** IDLE, REQUESTED (the parent asks for a checkpoint) or CLOSING. */
  state: 0,
  /** 1 while a checkpoint runs. */
  running: 1,
  checkpoints: 2,
  busy: 3,
  errors: 4,
  /** The log's pages, and how many of them are in the database file, at the last checkpoint. */
  log: 5,
  checkpointed: 6,
  length: 8,
} as const;

export const CheckpointState = { idle: 0, requested: 1, closing: 2 } as const;
