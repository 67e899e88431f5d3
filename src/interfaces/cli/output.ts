/**
 * Writing results and errors: JSON with --json, readable text otherwise. Only stdout/stderr here.
 */
import pc from 'picocolors';
import { toCliFailure } from './error-mapping.js';

export interface OutputOptions {
  json: boolean;
}

/** Prints a result: JSON on one line with --json, else via `human`. */
export function printResult(options: OutputOptions, value: unknown, human: (value: never) => string): void {
  if (options.json) process.stdout.write(`${JSON.stringify(value)}\n`);
  else process.stdout.write(`${human(value as never)}\n`);
}

/** Prints an error (one line, or JSON) and returns the exit code. */
export function printError(options: OutputOptions, error: unknown): number {
  const failure = toCliFailure(error);
  if (options.json) {
    process.stderr.write(`${JSON.stringify({ error: { code: failure.code, message: failure.message } })}\n`);
  } else {
    process.stderr.write(`${pc.red('error')} ${failure.message}\n`);
  }
  if (failure.internal && process.env.ENGRAM_DEBUG && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  return failure.exitCode;
}
