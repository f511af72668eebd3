// Shared harness for the page tests: serve web/dist with scripts/serve.mjs (strict CSP) on a
// random port, drive Debian's Chromium through playwright-core, and record every console
// error, CSP violation and request to a host other than the local server.
import { chromium } from 'playwright-core';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { spec } from '../../web/src/state/hash.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'web', 'dist');
export const SHOTS = join(ROOT, 'build', 'screenshots');

/**
 * The page's four views (English and Korean, desktop and phone widths) as two pairs; each pair
 * holds both languages and both widths. A behaviour that does not hang on how language and
 * width combine runs at one pair, and the files take turns so every view is driven; the layout
 * checks (mobile.test.mjs: nothing wider than the viewport) run every language at every width.
 */
export const VIEWS_A = Object.freeze([['en', 1280], ['ko', 390]]);
export const VIEWS_B = Object.freeze([['ko', 1280], ['en', 390]]);

/** worked facts (core/README.md), from the golden JSON when engineer "frequencies" has written it. */
export function golden(name) {
  const file = join(ROOT, 'tests', 'vectors', name);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts the server and the browser once per test file. */
export async function startSuite() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error('web/dist is missing: run `bash scripts/build-web.sh` (npm test does it)');
  }
  const server = await serve(DIST);
  // Playwright gives launch() a fresh temporary profile (its own --user-data-dir).
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS, headless: true });
  const origin = new URL(server.url).origin;
  const shared = await browser.newContext({ locale: 'en-US' });
  return {
    url: server.url,
    origin,
    browser,
    /**
     * A page with problem recorders attached. By default pages share one context (and so
     * localStorage); `locale` opens a fresh context whose navigator.language is `locale`.
     */
    async open(hash = '', { width = 1440, height = 900, wait = true, locale } = {}) {
      const context = locale ? await browser.newContext({ locale }) : shared;
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      page.setDefaultTimeout(8000);
      const problems = { console: [], csp: [], foreign: [], pageErrors: [] };
      page.on('console', (m) => { if (m.type() === 'error') problems.console.push(m.text()); });
      page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) problems.foreign.push(r.url());
      });
      await page.addInitScript(() => {
        window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => {
          window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      await page.goto(server.url + hash);
      if (wait) await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      page.problems = async () => ({ ...problems, csp: await page.evaluate(() => window.__csp) });
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Text of every cell in a table, row by row (header row excluded). */
export async function tableCells(page, testid) {
  return page.$$eval(`[data-testid="${testid}"] tbody tr`, (rows) => rows.map((r) => [...r.children].map((c) => c.textContent.trim())));
}

/** Parses a number printed with the page's true minus sign and grouping spaces. */
export function num(text) {
  return Number(String(text).replace(/\u2212/g, '-').replace(/[\u202f\s]/g, '').replace(/×10/, 'e'));
}

/** Sets a hash-bound number control (the number box named `param`) and commits it. */
export async function setNumber(page, param, value) {
  const box = page.locator(`input[type="number"][name="${param}"]`);
  await box.fill(String(value));
  await box.press('Enter');
}

/**
 * The page's hash schema, { schema: { key: spec }, sections }: every `'sN.x': spec.kind(args)`
 * line of web/src/sections, built with the page's own spec helpers (web/src/state/hash.js).
 */
export function pageSchema() {
  const dir = join(ROOT, 'web', 'src', 'sections');
  const schema = { lang: spec.enumOf('en', ['en', 'ko']) };
  const sections = readdirSync(dir).filter((f) => /^\d+-.*\.js$/.test(f));
  schema.sec = spec.int(0, 0, sections.length);
  for (const f of sections) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/^\s*'([\w.]+)':\s*spec\.(\w+)\((.*)\),\s*(\/\/.*)?$/gm)) {
      schema[m[1]] = new Function('spec', `return spec.${m[2]}(${m[3]});`)(spec);
    }
  }
  return { schema, sections: sections.length };
}

/**
 * Page code in `fn(arg)` that must answer within `ms`: a page whose main thread never yields
 * again (an endless loop) would leave page.evaluate waiting forever, so this throws instead,
 * naming `what`.
 */
export async function evaluateWithin(page, ms, what, fn, arg) {
  let timer;
  const stuck = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the page did not answer within ${ms / 1000} s: ${what}`)), ms);
  });
  try {
    return await Promise.race([page.evaluate(fn, arg), stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sets each hash on the open page in turn (its hashchange handler renders) and returns
 * { hash, drawn, failed, errors } for every one that did not draw all `sections` sections
 * cleanly: a section showing its "could not be computed" note, an uncaught error or rejection.
 * A hash after which the page stops answering fails the test naming it (never a hang).
 */
export async function renderHashes(page, hashes, sections) {
  await page.evaluate(() => {
    window.__errors ??= [];
    if (!window.__errorsHooked) {
      window.__errorsHooked = true;
      window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
      window.addEventListener('unhandledrejection', (e) => window.__errors.push(`rejection: ${e.reason}`));
    }
  });
  const bad = [];
  for (const hash of hashes) {
    const found = await evaluateWithin(page, 60000, `after hash ${hash.slice(0, 300)}`, async ({ hash, sections }) => {
      const changed = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
      location.hash = hash;
      if (location.hash !== '' || hash !== '#') await Promise.race([changed, new Promise((res) => setTimeout(res, 200))]);
      await new Promise((res) => setTimeout(res, 0));
      const drawn = document.querySelectorAll('#main > section[data-section]').length;
      const failed = [...document.querySelectorAll('#main > section > p.note.warn')].map((p) => p.textContent);
      if (drawn !== sections || failed.length || window.__errors.length) {
        return { hash: hash.slice(0, 300), drawn, failed, errors: window.__errors.splice(0) };
      }
      return null;
    }, { hash, sections });
    if (found) bad.push(found);
  }
  return bad;
}
