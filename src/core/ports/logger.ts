/** Where the engine reports things that went wrong but were handled (a bad LLM answer, a fallback). */
export interface Logger {
  /** A handled problem; `details` carries ids and reasons, never memory text. */
  warn(message: string, details?: Record<string, unknown>): void;
}

/** Discards everything (Null object). */
export const noopLogger: Logger = Object.freeze({ warn: () => undefined });

/** Writes warnings to `console.warn` (stderr in Node), one line each. */
export const consoleLogger: Logger = Object.freeze({
  warn: (message: string, details?: Record<string, unknown>) => {
    console.warn(details === undefined ? `engram: ${message}` : `engram: ${message} ${JSON.stringify(details)}`);
  },
});
