/**
 * The web UI: serves the built single-page app (`dist/ui`) at `/`. Files under `assets/` carry a
 * content hash in their name and are cached for a year; `index.html` is revalidated on every load.
 * A GET for a client route (no file extension, e.g. `/memory/01H…`) answers `index.html` so a reload
 * or a shared link opens the right view. The API's own paths are never answered here.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the build puts the UI: `<package>/dist/ui` (this file lives three folders below the package). */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../../dist/ui/', import.meta.url));

/**
 * Paths that belong to the API, MCP and hooks, in any case and with a trailing slash (`/V1/scopes`,
 * `/health/`): a miss there stays a JSON 404 naming the right path, never the app (a monitor probing
 * `/health/` must not read the app's 200 as a live store).
 */
const RESERVED = [/^\/v1(\/|$)/i, /^\/mcp(\/|$)/i, /^\/hooks(\/|$)/i, /^\/health\/*$/i, /^\/openapi\.json\/*$/i];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The app talks only to its own origin; inline styles are needed by the graph canvas. */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export interface StaticUi {
  /** The response for a GET/HEAD of `path`, or null when the UI does not answer it (an API path, another method). */
  respond: (method: string, path: string) => Promise<Response | null>;
}

/**
 * Serves the UI from `dir` (default `dist/ui`). Files are read once and kept in memory (the build's
 * output does not change while the server runs).
 *
 * @example
 * ```ts
 * const ui = staticUi();
 * app.notFound(async (c) => (await ui.respond(c.req.method, new URL(c.req.url).pathname)) ?? c.text('missing', 404));
 * ```
 */
export function staticUi(dir: string = DEFAULT_UI_DIR): StaticUi {
  const root = normalize(dir.endsWith(sep) ? dir : dir + sep);
  const cache = new Map<string, Buffer | null>();

  async function load(relative: string): Promise<Buffer | null> {
    const cached = cache.get(relative);
    if (cached !== undefined) return cached;
    const file = normalize(join(root, relative));
    if (!file.startsWith(root)) return null;
    let body: Buffer | null;
    try {
      body = await readFile(file);
    } catch {
      body = null;
    }
    if (cache.size < 500) cache.set(relative, body);
    return body;
  }

  return {
    async respond(method, path) {
      if (method !== 'GET' && method !== 'HEAD') return null;
      let decoded: string;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        return null;
      }
      if (decoded.includes('\0') || decoded.split('/').includes('..')) return null;
      const relative = decoded.replace(/^\/+/, '');
      // as decoded, with one leading slash: /%761/scopes and //health are API paths too
      if (RESERVED.some((r) => r.test(`/${relative}`))) return null;
      const ext = extname(relative);
      if (relative !== '' && ext !== '') {
        const body = await load(relative);
        if (body === null) return null;
        const immutable = relative.startsWith('assets/');
        return file(method, body, TYPES[ext] ?? 'application/octet-stream', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      }
      // "/" or a client route: the app's shell.
      const index = await load('index.html');
      if (index === null) {
        return Response.json(
          {
            error: {
              code: 'NOT_FOUND',
              message:
                'The web UI is not built in this install: run "npm run build" (it writes dist/ui), then restart engram serve. The API is under /v1 (see /openapi.json).',
            },
          },
          { status: 404 },
        );
      }
      return file(method, index, TYPES['.html'] as string, 'no-cache');
    },
  };
}

function file(method: string, body: Buffer, type: string, cacheControl: string): Response {
  const headers = { 'content-type': type, 'cache-control': cacheControl, 'content-length': String(body.byteLength), ...SECURITY_HEADERS };
  return new Response(method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}
