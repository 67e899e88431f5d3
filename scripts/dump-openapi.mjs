#!/usr/bin/env node
// Writes the OpenAPI document the built app serves at /openapi.json (run `npm run build` first) to a file,
// for `npm run lint:openapi` and client generators. The app runs in-process over a throwaway store.
//   node scripts/dump-openapi.mjs [FILE]   (default dist/openapi.json)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engram } from '../dist/index.js';
import { createHttpApp } from '../dist/interfaces/http/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ?? join(root, 'dist', 'openapi.json');
const dir = mkdtempSync(join(tmpdir(), 'engram-openapi-'));
try {
  const engram = await Engram.open({ path: join(dir, 'openapi.db'), embedder: 'hash' });
  try {
    const response = await createHttpApp({ engram, ui: false }).request('/openapi.json');
    if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
    writeFileSync(out, `${JSON.stringify(await response.json(), null, 2)}\n`);
    console.log(`OpenAPI document written to ${out}`);
  } finally {
    await engram.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
