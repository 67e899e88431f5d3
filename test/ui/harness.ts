/**
 * The web UI's browser tests: a real `engram serve` on 127.0.0.1 over a real SQLite file with keys for
 * two tenants, and Debian's chromium (`/usr/bin/chromium`) driven by playwright-core.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Engram, type RememberInput } from '../../src/index.js';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

export const CHROMIUM = '/usr/bin/chromium';
export const UI_BUILT = existsSync(new URL('../../dist/ui/index.html', import.meta.url));

/**
 * Why the browser tests cannot run here, or null when they can. Under CI a missing chromium is not a
 * reason: the tests run and fail, so CI never passes without them.
 */
export function skipReason(): string | null {
  if (process.env.CI === 'true') return null;
  if (!existsSync(CHROMIUM))
    return `skipped: ${CHROMIUM} is missing (install it with "apt-get install -y chromium"; under CI=true this fails instead)`;
  if (!UI_BUILT) return 'skipped: dist/ui is missing (run "npm run build")';
  return null;
}

export interface Fixture {
  url: string;
  acmeKey: string;
  globexKey: string;
  ids: Record<string, string>;
  browser: Browser;
  /** What engram serve printed so far. */
  output: () => string;
  stop: () => Promise<void>;
}

const DAY = 86_400_000;

/** Seeds a store (two tenants, a superseded fact with a past validity, episodes), creates keys, serves it. */
export async function startFixture(): Promise<Fixture> {
  const tmp = tempDir('engram-ui-');
  const path = join(tmp.dir, 'ui.db');
  const engram = await Engram.open({ path, embedder: 'hash' });
  const ids: Record<string, string> = {};
  const now = Date.now();
  const one = async (name: string, input: RememberInput) => {
    ids[name] = (await engram.remember(input)).id;
  };
  await one('paris', {
    scope: 'acme/notes',
    layer: 'semantic',
    content: 'Alice lives in Paris.',
    entities: ['Alice'],
    validFrom: '2024-01-01T00:00:00Z',
  });
  await one('berlin', {
    scope: 'acme/notes',
    layer: 'semantic',
    content: 'Alice lives in Berlin.',
    entities: ['Alice'],
    validFrom: '2025-06-01T00:00:00Z',
  });
  await one('cafe', {
    scope: 'acme/notes',
    content: 'We met Alice at the cafe to plan the zephyr launch.',
    entities: ['Alice'],
    occurredAt: now - 3 * DAY,
  });
  await one('review', {
    scope: 'acme/notes',
    content: 'Alice and Bob reviewed the zephyr launch checklist.',
    entities: ['Alice', 'Bob'],
    occurredAt: now - 2 * DAY,
  });
  await one('kestrel', {
    scope: 'acme/notes',
    content: 'Bob keeps the kestrel project notes in the blue binder.',
    entities: ['Bob'],
    occurredAt: now - DAY,
  });
  await one('purge1', { scope: 'acme/notes', content: 'The door code qqxylophone opens the lab.', tags: ['secret'] });
  await one('purge2', { scope: 'acme/notes', content: 'The vault word qqmarimba opens the safe.', tags: ['secret'] });
  await one('globex', { scope: 'globex/ops', content: 'Globex keeps the zephyr launch budget in a spreadsheet.' });
  const keys = new ApiKeys(engram.store);
  const acmeKey = (await keys.create({ tenant: 'acme', label: 'ui test' })).key;
  const globexKey = (await keys.create({ tenant: 'globex', label: 'ui test' })).key;
  await engram.close();

  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServe(['--db', path, '--embedder', 'hash']);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    await server?.stop();
    tmp.cleanup();
    throw error;
  }
  const running = server;
  const launched = browser;
  return {
    url: running.url.replace(/\/$/, ''),
    acmeKey,
    globexKey,
    ids,
    browser: launched,
    output: running.output,
    stop: async () => {
      await launched.close();
      await running.stop();
      tmp.cleanup();
    },
  };
}

/** A fresh page (own session storage) at 1366×768 that fails the test on any page error. */
export async function newPage(
  fixture: Fixture,
  viewport = { width: 1366, height: 768 },
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await fixture.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.setDefaultTimeout(25_000); // a shared 2-core CI machine can stall the browser for seconds
  return { page, errors, close: () => context.close() };
}

/** Signs in with the mouse: types the key and clicks Sign in. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url + '/');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Views' }).waitFor();
}

/**
 * Presses Tab until the focused element matches `selector` (at most `max` presses): moving through the
 * page as a keyboard user does. Fails when the element is never reached.
 */
export async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} within ${max} presses`);
}

/** Like tabTo, for a link or button by its visible text. */
export async function tabToText(page: Page, text: string | RegExp, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    const label = await focusedLabel(page);
    if (label !== null && (typeof text === 'string' ? label === text : text.test(label))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${String(text)}" within ${max} presses`);
}

/** Tabs to the link or button with this text and presses Enter on it: a keyboard user's click. */
export async function activate(page: Page, text: string | RegExp, max?: number): Promise<void> {
  await tabToText(page, text, max);
  await page.keyboard.press('Enter');
}

/** The accessible text of the focused element (its aria-label, else its text), or null on the body. */
export async function focusedLabel(page: Page): Promise<string | null> {
  return (await page.evaluate(`(() => {
    const el = document.activeElement;
    if (el === null || el === document.body) return null;
    return (el.getAttribute('aria-label') ?? el.innerText ?? '').trim();
  })()`)) as string | null;
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded !== 'object') await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
