#!/usr/bin/env node
// Screenshots of every view of the web UI at 1366×768 and 390×844, into bench/results/ui/.
// Seeds a temp SQLite store (two tenants, a superseded fact, episodes, one consolidation run), serves it
// with the built bin (run `npm run build` first) and drives Debian's chromium (/usr/bin/chromium).
//   node scripts/ui-screenshots.mjs [--out bench/results/ui]
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engram } from '../dist/index.js';
import { ApiKeys } from '../dist/interfaces/http/index.js';
import { launchChromium, startServer } from './ui-browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'bench/results/ui');
if (!existsSync(join(root, 'dist/ui/index.html'))) {
  console.error('dist/ui is missing: run "npm run build" first.');
  process.exit(1);
}
if (!existsSync('/usr/bin/chromium')) {
  console.error('/usr/bin/chromium is missing: install it with "apt-get install -y chromium".');
  process.exit(1);
}
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'engram-shots-'));
const db = join(dir, 'shots.db');
const DAY = 86_400_000;
const now = Date.now();
const engram = await Engram.open({ path: db, embedder: 'hash' });
const ids = {};
/** @type {Array<[string, import('../dist/index.js').RememberInput]>} */
const seed = [
  [
    'paris',
    { scope: 'acme/notes', layer: 'semantic', content: 'Alice lives in Paris.', entities: ['Alice'], validFrom: '2024-01-01T00:00:00Z' },
  ],
  [
    'berlin',
    { scope: 'acme/notes', layer: 'semantic', content: 'Alice lives in Berlin.', entities: ['Alice'], validFrom: '2025-06-01T00:00:00Z' },
  ],
  ['role', { scope: 'acme/notes', layer: 'semantic', content: 'Bob is the release manager for the zephyr launch.', entities: ['Bob'] }],
  [
    'howto',
    { scope: 'acme/notes', layer: 'procedural', content: 'To ship a release: tag it, run the checklist, then announce it in #launch.' },
  ],
];
for (let d = 12; d >= 1; d--) {
  seed.push([
    `ep${d}`,
    {
      scope: 'acme/notes',
      content: `Day ${13 - d}: Alice and Bob worked on the zephyr launch ${d % 2 === 0 ? 'checklist' : 'budget'} at the cafe.`,
      entities: ['Alice', 'Bob'],
      occurredAt: now - d * DAY,
    },
  ]);
}
for (const [name, input] of seed) ids[name] = (await engram.remember(input)).id;
await engram.consolidate({ scope: 'acme/notes' });
const key = (await new ApiKeys(engram.store).create({ tenant: 'acme', label: 'screenshots' })).key;
await engram.close();

const server = await startServer(['--db', db]);
const url = server.url;
const browser = await launchChromium();
/** @type {Array<[string, string | null, string]>} */
const views = [
  ['sign-in', null, '#api-key'],
  ['overview', '/', 'main .chart'],
  ['search', '/search?q=where+does+Alice+live&scope=acme%2Fnotes', '.hit'],
  ['browse', '/browse', '.virtual li'],
  ['memory', `/memory/${ids.berlin}?scope=acme%2Fnotes`, 'ol.chain'],
  ['timeline', '/timeline', 'ul.at-instant li'],
  ['graph', '/graph', '.node-list li'],
  ['consolidation', '/consolidation', 'ul.runs li'],
];
const written = [];
try {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ]) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    for (const [name, path, ready] of views) {
      if (path === null) {
        await page.goto(url + '/');
      } else {
        if (name === 'overview') {
          await page.fill('#api-key', key);
          await page.keyboard.press('Enter');
          await page.waitForSelector('nav[aria-label="Views"]');
        }
        await page.goto(url + path);
      }
      await page.waitForSelector(ready, { timeout: 20_000 }).catch(() => console.warn(`${name}: ${ready} did not appear`));
      if (name === 'search') await page.click('.why summary');
      if (name === 'consolidation') await page.click('ul.runs button').catch(() => undefined);
      if (name === 'timeline') await page.fill('#instant', '250');
      if (name === 'graph') {
        await page.click('.node-list button').catch(() => undefined);
        await page.waitForTimeout(800);
      }
      const file = join(out, `${name}-${width}x${height}.png`);
      await page.screenshot({ path: file });
      written.push(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`wrote ${written.length} screenshots to ${out}`);
