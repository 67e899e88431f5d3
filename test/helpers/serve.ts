/** Spawns the built `engram serve` on a loopback port and waits for its banner. */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `engram serve --port 0 ...args`; resolves once it prints "listening on <url>" and, unless `warm` is
 * false, has finished its background warm-up (so tests do not race it on a loaded machine).
 */
export function startServe(
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number; warm?: boolean } = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`engram serve did not start within ${options.timeoutMs ?? 60_000} ms:\n${out}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\S+)/.exec(out);
      if (match !== null && (options.warm === false || /warmed up in|warm-up failed/.test(out))) {
        clearTimeout(timer);
        resolve({
          url: match[1] as string,
          child,
          output: () => out,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engram serve exited with ${code}:\n${out}`));
    });
  });
}
