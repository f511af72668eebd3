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
import { launch, runPage as openPage } from '../bundlers/chromium.mjs';
import { serve } from '../../scripts/serve.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let browser;
const servers = [];
const temp = mkdtempSync(join(tmpdir(), 'posenc-web-'));
test.before(async () => {
  browser = await launch();
});
test.after(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  rmSync(temp, { recursive: true, force: true });
});

const runPage = (url, origin) => openPage(browser, url, origin);

function assertReport({ report, problems }) {
  assert.deepEqual(problems, []);
  assert.equal(report.simdSupported, true, 'Chromium validates SIMD128');
  const failed = report.results.filter((r) => !r.ok);
  assert.deepEqual(failed, [], JSON.stringify(failed, null, 1));
  assert.ok(report.results.length >= 20, `${report.results.length} checks ran`);
}

test('plain HTML page, no bundler, strict CSP: the reference facts hold on both binaries', async () => {
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
