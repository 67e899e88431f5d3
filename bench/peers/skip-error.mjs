/** Thrown by a system's open() when it cannot run here; the benchmark reports it as skipped with the message. */
export class SkipError extends Error {
  /** @override */
  name = 'SkipError';
}
