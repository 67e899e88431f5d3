/**
 * Runs one command body with the engine open, mapping failures to exit codes.
 */
import type { Engram } from '../../engram.js';
import { openEngine, type CommonFlags, type OpenExtra } from './context.js';
import { printError } from './output.js';

/** Opens the engine, runs `body`, closes it; errors become one line on stderr and an exit code. */
export async function withEngine(flags: CommonFlags, body: (engram: Engram) => Promise<void>, extra: OpenExtra = {}): Promise<void> {
  let engram: Engram | undefined;
  try {
    engram = await openEngine(flags, extra);
    await body(engram);
  } catch (error) {
    process.exitCode = printError({ json: flags.json === true }, error);
  } finally {
    if (engram !== undefined) {
      try {
        await engram.close();
      } catch (error) {
        process.exitCode = printError({ json: flags.json === true }, error);
      }
    }
  }
}
