/**
 * `engram serve [--db PATH] [--port N] [--host H] [--scope S]... [--auth auto|required|open]`: one
 * process serving the HTTP API, MCP over Streamable HTTP at /mcp and the hook operations, over one
 * engine. `npm start` runs it on the embedded default file.
 */
import type { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Engram } from '../../../engram.js';
import { EngramError } from '../../../core/errors.js';
import type { Scope } from '../../../core/scope.js';
import {
  discoveryPath,
  processStartOf,
  removeDiscovery,
  writeDiscovery,
  type DiscoveryClaim,
  type ServerInfo,
} from '../../hooks/discovery.js';
import { collect, openEngine, resolveDbPath, withCommonFlags, type CommonFlags } from '../context.js';
import { embedderLine } from '../embedder-advice.js';
import { printError } from '../output.js';
import { claudeCodeHttpConfig } from './setup.js';
import { serverScopes } from './mcp.js';
import { warmUp } from '../serve/warm-up.js';

/** Scope of MCP connections that name none, when serve was started without --scope. */
export const DEFAULT_SCOPE = 'local/default';

/** Default port of `engram serve`. */
export const DEFAULT_PORT = 7077;

interface ServeFlags extends CommonFlags {
  port?: string;
  host?: string;
  scope?: string[];
  auth?: string;
  consolidateEvery?: string;
  maxBodyBytes?: string;
  idleExit?: string;
  idleReflectAfter?: string;
  idleReflectThreshold?: string;
}

/** Registers `serve`. */
export function registerServeCommand(program: Command): void {
  withCommonFlags(program.command('serve').description('serve the HTTP API, MCP (Streamable HTTP at /mcp) and the Claude Code hooks'))
    .option('--port <n>', `port (default $PORT, else ${DEFAULT_PORT}; 0 picks a free one)`)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option(
      '--scope <scope>',
      'scope served (repeatable): what MCP clients that name none use, and the only scopes a keyless caller may name; else $ENGRAM_SCOPES',
      collect,
    )
    .option('--auth <mode>', 'API keys: auto (needed once a key exists), required, open (loopback only)', 'auto')
    .option('--consolidate-every <minutes>', 'run the consolidation cycle on every --scope on this schedule (default: off)')
    .option('--max-body-bytes <n>', 'largest HTTP request body accepted (default 1048576)')
    .option(
      '--idle-exit <minutes>',
      'exit after this many minutes without a request (the hooks start their server with it; default: never)',
    )
    .option(
      '--idle-reflect-after <duration>',
      'reflect a scope once it has had no write for this long and its importance since the last reflection crossed the threshold, e.g. 10m, 90s (default: off)',
    )
    .option('--idle-reflect-threshold <n>', 'importance that makes an idle scope reflect (default 5, the reflection threshold)')
    .action(async (flags: ServeFlags) => {
      try {
        await runServe(flags);
      } catch (error) {
        process.exitCode = printError({ json: flags.json === true }, error);
      }
    });
}

async function runServe(flags: ServeFlags): Promise<void> {
  // hono, @hono/node-server, the HTTP routes and the MCP SDK load only when serve runs.
  const [{ serve }, { answerClientErrors, ApiKeys, resolveAuthMode }, { createServeApp }] = await Promise.all([
    import('@hono/node-server'),
    import('../../http/index.js'),
    import('../serve/serve-app.js'),
  ]);
  const host = flags.host ?? '127.0.0.1';
  const port = portOf(flags.port, process.env.PORT);
  const auth = resolveAuthMode({ requested: flags.auth ?? 'auto', host });
  const scopes = serverScopes(flags);
  const db = resolveDbPath(flags);
  const isFile = !/^postgres(ql)?:\/\//.test(db);
  const everyMs = positiveNumber(flags.consolidateEvery, '--consolidate-every', 'minutes, e.g. --consolidate-every 60') * 60_000;
  const maxBodyBytes = positiveNumber(flags.maxBodyBytes, '--max-body-bytes', 'bytes, e.g. --max-body-bytes 2097152');
  const idleMs = positiveNumber(flags.idleExit, '--idle-exit', 'minutes, e.g. --idle-exit 30') * 60_000;
  const idleReflectMs = flags.idleReflectAfter === undefined ? Number.NaN : durationMs(flags.idleReflectAfter, '--idle-reflect-after');
  const idleThreshold = positiveNumber(
    flags.idleReflectThreshold,
    '--idle-reflect-threshold',
    'importance, e.g. --idle-reflect-threshold 5',
  );
  // one embedding worker by default: a recall's query vector is computed there while this thread runs
  // the other channels, and imports embed beside the requests (--workers 0: all on this thread)
  const engram = await openEngine(flags, { create: true, workers: 1 });
  engram.startBackground();
  if (!Number.isNaN(idleReflectMs)) {
    engram.startIdleReflection({
      idleMs: idleReflectMs,
      ...(Number.isNaN(idleThreshold) ? {} : { threshold: idleThreshold }),
      onEvent: (e) => {
        const idle = `idle ${Math.round(e.idleMs / 1000)} s, importance ${e.accumulated.toFixed(2)} of ${e.threshold}`;
        const what =
          e.outcome === 'reflected'
            ? `reflected (${e.created ?? 0} reflections)`
            : e.outcome === 'failed'
              ? `reflection failed, retried after the next idle period: ${(e.error as Error)?.message ?? String(e.error)}`
              : 'not reflected: below the threshold';
        process.stderr.write(`engram serve: idle reflection of ${e.scope}: ${what} (${idle})\n`);
      },
    });
  }
  const keys = new ApiKeys(engram.store);
  // Lets this user's hooks (who can read the discovery file) call /hooks without an API key.
  const hookToken = isFile ? randomBytes(24).toString('base64url') : undefined;
  const app = createServeApp({
    engram,
    scopes,
    auth,
    keys,
    defaultScopes: [DEFAULT_SCOPE],
    ...(hookToken !== undefined ? { hookToken } : {}),
    ...(Number.isNaN(maxBodyBytes) ? {} : { maxBodyBytes }),
  });
  const idle = idleWatch(Number.isNaN(idleMs) ? undefined : idleMs, () => void stop());
  const server = serve({ fetch: idle.wrap(app.fetch), port, hostname: host });
  answerClientErrors(server);
  // Longer than clients' idle pools (hooks, MCP clients), so a reused connection is not closed under them.
  Object.assign(server, { keepAliveTimeout: 65_000, headersTimeout: 66_000 });
  let address: { port: number };
  try {
    address = await new Promise<{ port: number }>((resolveAddress, reject) => {
      server.once('listening', () => resolveAddress(server.address() as { port: number }));
      server.once('error', reject);
    });
  } catch (error) {
    await engram.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new EngramError(
        'INVALID_INPUT',
        `Cannot listen on ${host}:${port} (${code}): pick another --port (0 picks a free one) or --host, or stop the program using it.`,
      );
    }
    throw error;
  }
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const processStart = processStartOf(process.pid);
  const info = {
    url,
    pid: process.pid,
    db: resolve(db),
    startedAt: new Date().toISOString(),
    ...(processStart !== undefined ? { processStart } : {}),
    ...(hookToken !== undefined ? { hookToken } : {}),
  };
  // another server of this database already serves its hooks, or the file cannot be written (a full
  // disk): this one serves unadvertised, and tries again every 30 s
  let discovery = isFile ? advertise(info) : undefined;
  const takeOver =
    discovery?.advertised === false
      ? setInterval(() => {
          const failedBefore = discovery !== undefined && 'failure' in discovery;
          discovery = advertise(info);
          if (!discovery.advertised) return;
          clearInterval(takeOver);
          if (failedBefore) process.stderr.write(`engram serve: hooks can find this server now (${discovery.path})\n`);
        }, 30_000)
      : undefined;
  takeOver?.unref();

  const schedule = Number.isNaN(everyMs) ? undefined : scheduleConsolidation(engram, scopes.length > 0 ? scopes : [DEFAULT_SCOPE], everyMs);

  let stopping = false;
  const shutDown = async () => {
    stopping = true;
    idle.stop();
    await schedule?.stop();
    if (takeOver !== undefined) clearInterval(takeOver);
    if (isFile) removeDiscovery(db, process.pid);
    await new Promise<void>((done) => server.close(() => done()));
    await engram.stopBackground();
    await engram.close();
  };
  const stop = async () => {
    if (stopping) return;
    await shutDown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  let keyNeeded: boolean;
  try {
    keyNeeded = auth === 'required' || (auth === 'auto' && (await keys.hasEverHadKey()));
  } catch (error) {
    // a failed command must not leave the server running behind its error
    await shutDown();
    throw error;
  }
  const config = claudeCodeHttpConfig({ url, scopes: scopes.length > 0 ? scopes : [DEFAULT_SCOPE], keyNeeded });
  const lines = [
    `engram serve listening on ${url}`,
    `  database: ${isFile ? resolve(db) : db.replace(/\/\/[^@/]*@/, '//***@')}`,
    `  embedder: ${embedderLine(engram.embedder.name, flags.cacheDir)}`,
    `  MCP (Streamable HTTP): ${url}/mcp · ${scopes.length > 0 ? `scopes ${scopes.join(', ')}` : `scope ${DEFAULT_SCOPE} unless a client names others with ?scope=tenant/... (start with --scope to fix them)`}`,
    `  web UI: ${url}/`,
    `  HTTP API: ${url}/v1 · ${url}/openapi.json · ${url}/health`,
    `  API keys: ${auth}${auth === 'auto' ? ' (required once a key has been created, even if revoked: engram keys create --tenant T)' : ''}`,
    ...(discovery === undefined || discovery.advertised
      ? []
      : 'failure' in discovery
        ? [
            `  hooks: not advertised: cannot write ${discovery.path} (${discovery.failure}); hooks open the database themselves until it can be written (tried again every 30 s)`,
          ]
        : [
            `  hooks: not advertised: engram serve (pid ${discovery.holder.pid}) at ${discovery.holder.url} serves this database's hooks; this one takes over when it stops`,
          ]),
    ...(schedule === undefined
      ? []
      : [`  consolidation: every ${Number(flags.consolidateEvery)} min on ${(scopes.length > 0 ? scopes : [DEFAULT_SCOPE]).join(', ')}`]),
    ...(Number.isNaN(idleReflectMs)
      ? []
      : [
          `  idle reflection: a scope reflects after ${flags.idleReflectAfter} without writes once its importance crosses ${Number.isNaN(idleThreshold) ? 'the threshold' : idleThreshold}`,
        ]),
    '',
    `Claude Code: put this in .mcp.json (or run: engram setup claude-code --write --url ${url} --scope ${(scopes.length > 0 ? scopes : [DEFAULT_SCOPE]).join(' --scope ')}, which adds the hooks too)`,
    JSON.stringify(config, null, 2),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  // After listening, not before: requests are served (and wait for what they need) while it runs.
  const warmHttp = { fetch: (request: Request) => app.fetch(request), keyless: !keyNeeded };
  void warmUp(engram, scopes.length > 0 ? scopes : [DEFAULT_SCOPE], warmHttp).then(
    (ms) => process.stderr.write(`engram serve: warmed up in ${ms} ms (model, write path, read path)\n`),
    (error: unknown) => {
      if (!stopping)
        process.stderr.write(`engram serve: warm-up failed (requests still work, the first is slower): ${(error as Error).message}\n`);
    },
  );
}

/**
 * `writeDiscovery`, with a file that cannot be written (a full disk, no permission) reported rather
 * than thrown: the server serves all the same, unadvertised.
 */
function advertise(info: ServerInfo): DiscoveryClaim | { path: string; advertised: false; failure: string } {
  try {
    return writeDiscovery(info);
  } catch (error) {
    return { path: discoveryPath(info.db), advertised: false, failure: fileFailure(error) };
  }
}

/** A file system error in a few words: its code and what it means for the usual ones. */
function fileFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const meaning: Record<string, string> = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    EACCES: 'no permission to write there',
    EPERM: 'no permission to write there',
    EROFS: 'the file system is read-only',
  };
  const what = (code !== undefined ? meaning[code] : undefined) ?? (error as Error).message;
  return code !== undefined && what !== (error as Error).message ? `${code}: ${what}` : what;
}

/**
 * Calls `onIdle` once no request has been in flight for `idleMs` (never when undefined); a long
 * request (an MCP stream) counts as activity until it ends.
 */
function idleWatch(idleMs: number | undefined, onIdle: () => void) {
  let inFlight = 0;
  let last = Date.now();
  const timer =
    idleMs === undefined
      ? undefined
      : setInterval(
          () => {
            if (inFlight === 0 && Date.now() - last >= idleMs) onIdle();
          },
          Math.min(30_000, Math.max(250, idleMs / 4)),
        );
  timer?.unref();
  return {
    wrap<A extends unknown[]>(fetch: (request: Request, ...rest: A) => Response | Promise<Response>) {
      if (idleMs === undefined) return fetch;
      return async (request: Request, ...rest: A): Promise<Response> => {
        inFlight += 1;
        last = Date.now();
        try {
          return await fetch(request, ...rest);
        } finally {
          inFlight -= 1;
          last = Date.now();
        }
      };
    },
    stop: () => clearInterval(timer),
  };
}

/** A duration flag: `500ms`, `90s`, `10m`, `1h`, or a bare number of minutes. */
function durationMs(value: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/i.exec(value);
  const unit = { ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000 }[(match?.[2] ?? 'm').toLowerCase() as 'ms'];
  const ms = match === null ? Number.NaN : Number(match[1]) * unit;
  if (!(ms > 0))
    throw new EngramError('INVALID_INPUT', `${flag} must be a positive duration such as 10m, 90s, 500ms or 1h; got "${value}".`);
  return ms;
}

/** `--port`, else `$PORT`, else the default: a whole number from 0 (any free port) to 65535. */
function portOf(flag: string | undefined, env: string | undefined): number {
  const [value, source] =
    flag !== undefined ? [flag, '--port'] : env !== undefined && env.trim() !== '' ? [env, 'PORT (from the environment)'] : [undefined, ''];
  if (value === undefined) return DEFAULT_PORT;
  const n = /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 65_535))
    throw new EngramError(
      'INVALID_INPUT',
      `${source} must be a whole number from 0 to 65535 (0: any free port), e.g. --port 7077; got "${value.slice(0, 40)}".`,
    );
  return n;
}

/** A flag that must be a positive number when given; NaN when absent. */
function positiveNumber(value: string | undefined, flag: string, example: string): number {
  if (value === undefined) return Number.NaN;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new EngramError('INVALID_INPUT', `${flag} must be a positive number of ${example}; got "${value}".`);
  return n;
}

/**
 * Runs the consolidation cycle on each scope every `everyMs` ("on a schedule in the
 * server"), one scope after another, never overlapping itself. Another process's cycle on the same
 * scope (LOCKED) is simply skipped until next time; each run prints one line on stderr.
 */
function scheduleConsolidation(engram: Engram, scopes: readonly Scope[], everyMs: number): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const runAll = async () => {
    for (const scope of scopes) {
      if (stopped) return;
      try {
        const report = await engram.consolidate({ scope });
        const changed = report.phases.reduce((sum, phase) => sum + phase.created + phase.updated, 0);
        process.stderr.write(
          `engram serve: consolidated ${scope} (${report.phases.length} phases, ${changed} records created or updated)\n`,
        );
      } catch (error) {
        const code = (error as { code?: string }).code;
        process.stderr.write(
          `engram serve: consolidation of ${scope} ${code === 'LOCKED' ? 'skipped: another cycle is running' : `failed: ${(error as Error).message}`}\n`,
        );
      }
    }
  };
  const timer = setInterval(() => {
    running = running.then(runAll);
  }, everyMs);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
