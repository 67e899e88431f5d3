/** Runs the built `engram` bin as a child process, as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/interfaces/cli/main.js', import.meta.url));

/** Whether `npm run build` has produced the bin (tests that spawn it skip with a reason otherwise). */
export const binBuilt = existsSync(BIN);

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `engram ...args` synchronously. */
export function runCli(args: readonly string[], options: { input?: string; env?: Record<string, string>; cwd?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    input: options.input,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: { ...process.env, ...options.env },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `engram ...args` asynchronously; an `env` entry set to undefined is left out of the child's environment. */
export function runCliAsync(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.stdin.end(options.input ?? '');
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Parses stdout as one JSON document. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (status ${result.status}): ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

/**
 * Runs `engram ...args` (with `--json`) and returns its JSON error when it exits 2 with INVALID_INPUT;
 * fails the test, naming the command, otherwise.
 */
export function invalidInputOf(args: readonly string[], options: { env?: Record<string, string> } = {}): { code: string; message: string } {
  const result = runCli(args, options);
  if (result.status !== 2) throw new Error(`expected exit 2 from engram ${args.join(' ')}, got ${result.status}: ${result.stderr}`);
  const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string } };
  if (error.code !== 'INVALID_INPUT')
    throw new Error(`expected INVALID_INPUT from engram ${args.join(' ')}, got ${error.code}: ${error.message}`);
  return error;
}
