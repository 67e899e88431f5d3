#!/usr/bin/env node
// The web UI's Browse view over the 100k-memory scale corpus (bench/scale-corpus.mjs), in Debian's
// chromium: time from navigation to the first rows, time per further keyset page of 100 while
// scrolling, time to draw the rows at a jump of the scroll position, and how many rows are in the
// page at once (windowing keeps it flat however many are loaded). Needs `npm run build` and
// /usr/bin/chromium.   node bench/ui-browse.mjs [--size 100000] [--pages 30]
import { existsSync } from 'node:fs';
import { MAIN_SCOPE, dist, ensureScaleCorpus } from './scale-corpus.mjs';
import { log, percentiles, printTable, writeResult } from './lib.mjs';
import { launchChromium, startServer } from '../scripts/ui-browser.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const size = arg('--size', 100_000);
const pages = arg('--pages', 30);
if (!existsSync(dist('ui/index.html'))) throw new Error('dist/ui is missing: run `npm run build` first.');

const { path } = await ensureScaleCorpus(size);
const server = await startServer(['--db', path, '--auth', 'open']);
const url = server.url;
const browser = await launchChromium();
const loaded = `Number((document.querySelector('main .status')?.textContent ?? '').match(/^(\\d+) loaded/)?.[1] ?? 0)`;
try {
  // the page's CSP forbids eval; waitForFunction needs it (a test harness only)
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, bypassCSP: true });
  const start = performance.now();
  await page.goto(`${url}/browse?scope=${encodeURIComponent(MAIN_SCOPE)}`);
  await page.waitForSelector('.virtual li');
  const firstRowsMs = performance.now() - start;
  log(`first rows after ${firstRowsMs.toFixed(0)} ms`);
  // again, with the server's caches warm (what a user sees after the first page load)
  const again = performance.now();
  await page.reload();
  await page.waitForSelector('.virtual li');
  const warmRowsMs = performance.now() - again;
  log(`first rows after a reload ${warmRowsMs.toFixed(0)} ms`);

  const pageMs = [];
  const rowsInDom = [];
  for (let i = 0; i < pages; i++) {
    const before = await page.evaluate(loaded);
    const t = performance.now();
    await page.evaluate(
      `(() => { const box = document.querySelector('.virtual'); box.scrollTop = box.scrollHeight; box.dispatchEvent(new Event('scroll')); })()`,
    );
    await page.waitForFunction(`${loaded} > ${before}`, undefined, { timeout: 30_000 });
    pageMs.push(performance.now() - t);
    rowsInDom.push(await page.evaluate(`document.querySelectorAll('.virtual li').length`));
  }
  const total = await page.evaluate(loaded);
  log(`${total} rows loaded over ${pages} more pages`);

  // jumps to random positions among the loaded rows: time until the rows there are drawn
  const jumpMs = [];
  for (let i = 0; i < 50; i++) {
    const row = Math.floor((((i * 7919) % 997) / 997) * (total - 20));
    const t = performance.now();
    await page.evaluate(
      `(() => { const box = document.querySelector('.virtual'); box.scrollTop = ${row} * 64; box.dispatchEvent(new Event('scroll')); })()`,
    );
    await page.waitForFunction(
      `[...document.querySelectorAll('.virtual li')].some((li) => Number(li.getAttribute('aria-posinset')) === ${row + 1})`,
    );
    jumpMs.push(performance.now() - t);
  }
  const result = {
    size,
    viewport: '1366x768',
    firstRowsMs: Math.round(firstRowsMs),
    firstRowsWarmMs: Math.round(warmRowsMs),
    nextPageMs: percentiles(pageMs),
    jumpToRowMs: percentiles(jumpMs),
    rowsLoaded: total,
    rowsInDomMax: Math.max(...rowsInDom),
  };
  printTable(
    `Browse at ${size} memories (pages of 100, windowed rows)`,
    [
      ['measure', 'measure'],
      ['value', 'value'],
    ],
    [
      { measure: 'first rows, server just started, ms', value: result.firstRowsMs },
      { measure: 'first rows after a reload, ms', value: result.firstRowsWarmMs },
      { measure: 'next page while scrolling p50, ms', value: result.nextPageMs.p50 },
      { measure: 'next page while scrolling p95, ms', value: result.nextPageMs.p95 },
      { measure: 'rows drawn after a jump p50, ms', value: result.jumpToRowMs.p50 },
      { measure: 'rows drawn after a jump p95, ms', value: result.jumpToRowMs.p95 },
      { measure: 'rows loaded', value: total },
      { measure: 'rows in the page at most', value: result.rowsInDomMax },
    ],
  );
  console.log(writeResult('ui-browse', result));
} finally {
  await browser.close();
  server.stop();
}
