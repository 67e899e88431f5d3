/**
 * Serving the built web UI: files with their content types and cache headers, the app's shell for client
 * routes, and the API's own paths never answered by it (a miss there stays a JSON 404).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import { createServeApp } from '../../src/interfaces/cli/serve/serve-app.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked field by field
const body = async (response: Response): Promise<Record<string, any>> => (await response.json()) as Record<string, any>;

describe('static web UI', () => {
  const ui = tempDir('engram-ui-static-');
  let engram: Awaited<ReturnType<typeof tempEngram>>;
  let app: HttpApp;
  beforeAll(async () => {
    mkdirSync(join(ui.dir, 'assets'));
    writeFileSync(join(ui.dir, 'index.html'), '<!doctype html><title>shell</title>');
    writeFileSync(join(ui.dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(ui.dir, 'assets', 'index-abc123.css'), 'body{}');
    writeFileSync(join(ui.dir, 'robots.txt'), 'User-agent: *');
    engram = await tempEngram();
    app = createHttpApp({ engram: engram.engram, auth: 'open', ui: ui.dir });
  });
  afterAll(async () => {
    await engram.cleanup();
    ui.cleanup();
  });

  it('answers / and client routes with the shell, revalidated on every load, under a strict CSP', async () => {
    for (const path of ['/', '/search', '/memory/01H0000000000000000000000A?scope=acme%2Fa', '/graph/']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<title>shell</title>');
    }
    const head = await app.request('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves hashed assets for a year with their content types, and other files revalidated', async () => {
    const js = await app.request('/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log(1)');
    expect((await app.request('/assets/index-abc123.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const txt = await app.request('/robots.txt');
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(txt.headers.get('cache-control')).toBe('no-cache');
  });

  it('a missing file is a JSON 404, not the shell; paths out of the folder are refused', async () => {
    for (const path of ['/assets/nope.js', '/favicon.ico', '/..%2F..%2Fetc%2Fpasswd.txt', '/assets/..%2F..%2Fpackage.json']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/application\/json/);
    }
  });

  it('never shadows the API: /v1, /health and /openapi.json answer as before, misses there stay JSON', async () => {
    expect((await body(await app.request('/health'))).status).toBe('ok');
    expect((await body(await app.request('/openapi.json'))).openapi).toMatch(/^3/);
    const miss = await app.request('/v1/nothing-here');
    expect(miss.status).toBe(404);
    expect((await body(miss)).error.message).toMatch(/No endpoint GET \/v1\/nothing-here/);
    const wrongMethod = await app.request('/v1/recall');
    expect(wrongMethod.status).toBe(405);
    // writes to a client route are not the UI's business
    expect((await app.request('/search', { method: 'POST' })).status).toBe(404);
  });

  it('engram serve keeps /mcp and /hooks its own, and says how to build a missing UI', async () => {
    const serveApp = createServeApp({ engram: engram.engram, auth: 'open', scopes: [] });
    const mcp = await serveApp.request('/mcp', { headers: { accept: 'text/html' } });
    expect(mcp.headers.get('content-type') ?? '').not.toContain('text/html');
    const missing = createHttpApp({ engram: engram.engram, auth: 'open', ui: join(ui.dir, 'not-built') });
    const response = await missing.request('/');
    expect(response.status).toBe(404);
    expect((await body(response)).error.message).toMatch(/npm run build/);
    const none = createHttpApp({ engram: engram.engram, auth: 'open', ui: false });
    expect((await none.request('/')).status).toBe(404);
  });
});
