/**
 * What the record facade announces after (`remember`, `import`, `purge`) or as it starts (`update`,
 * `status`, `unsupersede`) a write, so parts composed on top (the serving cache, the background
 * worker) follow the store without the facade knowing them.
 */
import type { Layer } from './memory.js';
import type { Scope } from './scope.js';

/** One write of the record facade. */
export interface RecordChange {
  /** The facade call: `status` is forget or restore, `import` is Markdown import. */
  readonly kind: 'remember' | 'import' | 'update' | 'status' | 'unsupersede' | 'purge';
  /** The scope of each record written, with its layer where the call knows it (remember); absent, any layer. */
  readonly records: readonly {
    readonly scope: Scope;
    readonly layer?: Layer;
    /** The importance the writer gave (remember), if any. */ readonly importance?: number;
  }[];
}

/** Called synchronously, in write order; it must not throw. */
export type RecordChangeListener = (change: RecordChange) => void;
