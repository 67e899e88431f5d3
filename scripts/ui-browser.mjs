// Shared by scripts/ui-screenshots.mjs and bench/ui-browse.mjs: the built `engram serve` on a free
// loopback port, and Debian's chromium launched as the browser tests launch it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BIN = fileURLToPath(new URL('../dist/interfaces/cli/main.js', import.meta.url));

/**
 * Starts `engram serve --port 0 ...args` and resolves once it listens and has warmed up.
 * @param {string[]} args
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
export function startServer(args) {
  const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk) => {
      text += chunk.toString();
      const match = /listening on (http:\S+)/.exec(text);
      if (match !== null && /warmed up in|warm-up failed/.test(text))
        resolve({ url: match[1].replace(/\/$/, ''), stop: () => server.kill('SIGTERM') });
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.once('exit', (code) => reject(new Error(`engram serve exited with ${code}: ${text}`)));
  });
}

/** Headless chromium from /usr/bin/chromium. */
export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
