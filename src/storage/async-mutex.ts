/** Serialises async critical sections in one process, first come first served. */
export class AsyncMutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier caller's `fn` has settled; resolves or rejects with its outcome. */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
