/**
 * The HTTP app of `engram serve` over an engine, listening on a free loopback port for one test, and a
 * small fetch helper that sends JSON (with a bearer key when given) and returns status and body.
 */
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { serve } from '@hono/node-server';
import type { Engram } from '../../src/index.js';
import type { ApiKeys, AuthMode } from '../../src/interfaces/http/index.js';
import { createServeApp } from '../../src/interfaces/cli/serve/serve-app.js';

export type CallHttp = (
  path: string,
  init?: { method?: string; key?: string; body?: unknown },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
) => Promise<{ status: number; body: Record<string, any> }>;

/** Serves `engram` until the cleanup pushed onto `cleanups` runs. */
export async function loopbackApp(
  engram: Engram,
  options: { auth: AuthMode; scopes?: string[]; keys?: ApiKeys },
  cleanups: Array<() => Promise<void>>,
): Promise<CallHttp> {
  const app = createServeApp({
    engram,
    auth: options.auth,
    scopes: options.scopes ?? [],
    ...(options.keys !== undefined ? { keys: options.keys } : {}),
  });
  const running = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => running.once('listening', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => running.close(() => resolve())));
  const base = `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
  return async (path, init = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
    const response = await fetch(base + path, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

/**
 * For a test file: a cleanup list run in reverse after each test, and `server`, which serves an engine
 * on a loopback port until then.
 */
export function loopbackServers(): {
  cleanups: Array<() => Promise<void>>;
  server: (engram: Engram, options: { auth: AuthMode; scopes?: string[]; keys?: ApiKeys }) => Promise<CallHttp>;
} {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return { cleanups, server: (engram, options) => loopbackApp(engram, options, cleanups) };
}
