/** Measures durations: milliseconds from an arbitrary origin, monotonic, unaffected by clock changes. */
export interface Stopwatch {
  /** Milliseconds since the stopwatch's origin; only differences between two readings mean anything. */
  now(): number;
}
