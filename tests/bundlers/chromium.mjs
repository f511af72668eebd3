// Chromium (Debian's, driven by playwright-core) for the package's browser tests: opens a page,
// waits for #results[data-done], returns the JSON it shows and every problem seen on the way
// (console errors, page errors, failed or ≥ 400 requests, requests leaving the origin).
import { chromium } from 'playwright-core';

export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS });

export async function runPage(browser, url, origin = new URL(url).origin) {
  const context = await browser.newContext();
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
  try {
    await page.goto(url);
    await page.waitForSelector('#results[data-done="true"]', { timeout: 60000 }).catch((e) => {
      throw new Error(`${e.message}\nproblems: ${problems.join('\n') || 'none'}`);
    });
    return { report: JSON.parse(await page.textContent('#results')), problems };
  } finally {
    await context.close();
  }
}
