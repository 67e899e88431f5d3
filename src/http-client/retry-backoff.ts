/**
 * Retry timing shared by the HTTP adapters (LLM, embeddings): exponential backoff with jitter, and a
 * sleep that an abort signal cuts short.
 */

/** Delay before retry `attempt` (1-based): `base · 2^(attempt-1)` with ±25 % jitter, so clients that failed together do not retry together. */
export function backoffDelay(base: number, attempt: number): number {
  const raw = base * 2 ** (attempt - 1);
  return raw * (0.75 + Math.random() * 0.5);
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller then sees `signal.aborted`). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** A positive finite number, else the fallback. */
export function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
