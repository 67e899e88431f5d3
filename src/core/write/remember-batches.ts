/**
 * The bulk write path: consecutive batches, each its own transaction, with the next batches planned
 * and embedded while the current one commits, so the embedding workers never wait for the store.
 */
import type { ParsedRememberInput } from '../schemas.js';
import { commitWrite, prepareWrite, type PreparedWrite, type RememberResult, type WriteDeps, type WriteOptions } from './remember.js';

/**
 * Batches prepared beyond the one committing: two keep the embedder's queue non-empty across a
 * commit (one would leave the workers idle while the last job of a batch finishes).
 */
const PREPARED_AHEAD = 2;

/**
 * Writes `batches` in order, each atomically in its own transaction, and yields each batch's results
 * once it has committed. Batch n + 1 and n + 2 are planned and embedded while batch n commits (planning
 * and embedding read nothing from the store), so the outcome is the same as calling {@link rememberAll}
 * on each batch in turn: later batches see earlier ones, ids and order are kept. When a batch fails,
 * the generator throws its error: the batches before it stay committed, it and every later batch
 * write nothing. Stopping the iteration early writes nothing more.
 */
export async function* rememberBatches(
  deps: WriteDeps,
  batches: readonly (readonly ParsedRememberInput[])[],
  options: WriteOptions = {},
): AsyncGenerator<RememberResult[], void, undefined> {
  const ahead: Promise<PreparedWrite>[] = [];
  let next = 0;
  const refill = (): void => {
    while (ahead.length < PREPARED_AHEAD && next < batches.length) {
      const preparing = prepareWrite(deps, batches[next++] as readonly ParsedRememberInput[], options);
      // A batch that fails while an earlier one commits is reported when its turn comes, not as unhandled.
      preparing.catch(() => undefined);
      ahead.push(preparing);
    }
  };
  refill();
  while (ahead.length > 0) {
    const prepared = await (ahead.shift() as Promise<PreparedWrite>);
    refill();
    yield await commitWrite(deps, prepared, options);
  }
}
