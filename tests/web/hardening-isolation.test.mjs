// posenc in a Web Worker and as two instances in one page, in Chromium under the strict CSP
// of scripts/serve.mjs. The page (hardening-fixture/) runs the shared workload
// (hardening-fixture/workload.js, also run by tests/js/workers.test.mjs in Node threads) on
// both binaries in the page and in a module Web Worker; the worker's numbers must equal the
// page's bit for bit, with the worked-fact checks passing in both, and no console error or
// CSP violation. Two instances in the page: one failing and growing leaves the other as it was.
import test from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

test('a module Web Worker and two instances in one page: same numbers, independent, no CSP violation', async () => {
  const server = await serve(repo);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.addInitScript(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(`${server.url}tests/web/hardening-fixture/index.html`);
    await page.waitForSelector('#results[data-done="true"]', { timeout: 45000 });
    const report = JSON.parse(await page.textContent('#results'));
    problems.push(...(await page.evaluate(() => window.__csp)).map((v) => `CSP: ${v}`));
    assert.equal(report.crash, undefined, report.crash);
    assert.deepEqual(problems, []);

    for (const simd of ['true', 'false']) {
      const inPage = report.page[simd];
      const inWorker = report.worker[simd];
      assert.equal(inWorker.length, inPage.length);
      inWorker.forEach((w, i) => {
        const where = `${simd === 'true' ? 'simd' : 'scalar'} seed #${i}`;
        assert.equal(w.crash, undefined, `worker ${where}: ${w.crash}`);
        assert.equal(String(w.simd), simd, `worker ${where}: loaded the requested binary`);
        assert.deepEqual(w.failed, [], `worker ${where}: worked-fact checks`);
        assert.deepEqual(inPage[i].failed, [], `page ${where}: worked-fact checks`);
        assert.equal(w.error?.name, 'RangeError', `worker ${where}: refused call ${JSON.stringify(w.error)}`);
        for (const [name, values] of Object.entries(inPage[i].results)) {
          assert.deepEqual(w.results[name], values, `${where}: ${name} differs between worker and page`);
        }
      });
    }

    const pair = report.pair;
    assert.deepEqual(pair.refused, ['RangeError', 'RangeError', 'RangeError'], 'a refuses bad calls');
    assert.ok(pair.separateMemories, 'a grew, b did not: one memory each');
    assert.ok(pair.bStatsUnchanged, 'b\'s memory and in-use bytes unchanged by a');
    assert.ok(pair.foreign.every((r) => r === 'accepted' || r === 'TypeError'), `a's tensors given to b: ${pair.foreign}`);
    assert.ok(pair.bTensorIntact, 'b\'s tensor intact (after a failing, growing, and lending b its tensors)');
    assert.deepEqual([pair.failedA, pair.failedB], [[], []], 'both still right');
    assert.ok(pair.sameWork, 'the same work gives the same numbers on a and b');
  } finally {
    await browser.close();
    await server.close();
  }
});
