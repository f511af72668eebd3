// The package in Chromium (playwright-core + Debian Chromium): a plain HTML page imports
// wasm/index.js with no bundler, under the strict CSP of scripts/serve.mjs, and runs the
// checks of package-fixture/main.js on both binaries; then the same page built by Vite.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser;
const servers = [];
const temp = mkdtempSync(join(tmpdir(), 'posenc-web-'));
test.before(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
});
test.after(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  rmSync(temp, { recursive: true, force: true });
});

// Opens url, waits for #results, returns { report, problems } where problems are console
// errors, CSP violations, page errors and failed requests (any request leaving the server).
async function runPage(url, origin) {
  const context = await browser.newContext({ offline: false });
  const page = await context.newPage();
  const problems = [];
  // The browser's own favicon probe is the one request the page does not make.
  const ours = (u) => !u.endsWith('/favicon.ico');
  page.on('console', (m) => {
    if (m.type() === 'error' && ours(m.location().url)) problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('response', (r) => { if (r.status() >= 400 && ours(r.url())) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  page.on('request', (r) => { if (!r.url().startsWith(origin)) problems.push(`foreign request: ${r.url()}`); });
  await page.goto(url);
  await page.waitForSelector('#results[data-done="true"]', { timeout: 60000 });
  const report = JSON.parse(await page.textContent('#results'));
  await context.close();
  return { report, problems };
}

function assertReport({ report, problems }) {
  assert.deepEqual(problems, []);
  assert.equal(report.simdSupported, true, 'Chromium validates SIMD128');
  const failed = report.results.filter((r) => !r.ok);
  assert.deepEqual(failed, [], JSON.stringify(failed, null, 1));
  assert.ok(report.results.length >= 20, `${report.results.length} checks ran`);
}

test('plain HTML page, no bundler, strict CSP: DESIGN §3 checks pass on both binaries', async () => {
  const server = await serve(repo);
  servers.push(server);
  assertReport(await runPage(`${server.url}tests/web/package-fixture/index.html`, server.url));
});

test('the same page built by Vite (hashed .wasm assets) passes the same checks', async () => {
  const out = join(temp, 'dist');
  execFileSync(join(repo, 'node_modules/.bin/vite'),
    ['build', join(repo, 'tests/web/package-fixture'), '--outDir', out, '--base', './', '--logLevel', 'warn', '--emptyOutDir'],
    { cwd: temp, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = await serve(out);
  servers.push(server);
  assertReport(await runPage(`${server.url}index.html`, server.url));
});
