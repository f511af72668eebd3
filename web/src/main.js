// Entry: load the posenc package, read the URL hash, and mount the sections part by part.
// Every number on the page comes from the package; this file only wires state and language.
import { createPosenc } from 'posenc';
import './styles/main.css';
import { h, replace } from './ui/dom.js';
import { HashState, spec } from './state/hash.js';
import { translator, storedLang, browserLang, rememberLang } from './i18n/index.js';
import { PARTS, SECTIONS } from './sections/index.js';
import { rich } from './ui/math.js';
import { packageError } from './ui/errors.js';
import { setTableCue } from './ui/table.js';

const main = document.getElementById('main');
const toc = document.getElementById('toc');
const notesEl = document.getElementById('notes');
const foot = document.getElementById('foot');

function buildSchema() {
  const schema = {
    lang: spec.enumOf(storedLang() ?? browserLang(), ['en', 'ko']),
    sec: spec.int(0, 0, Math.max(...SECTIONS.map((s) => s.num))),
  };
  for (const s of SECTIONS) Object.assign(schema, s.params ?? {});
  return schema;
}

const state = new HashState(buildSchema());
// The language is always written, so a shared link opens in the language it was made in.
state.always = new Set(['lang']);
let pe = null;
let mounted = new Map();  // section number → its mount ({ el, dispose? })
let problems = [];
let t = translator('en');
let pending = new Map();
let lazy = null;
let generation = 0;
// The section a link opened: scrolled to again once everything above it has mounted,
// unless the reader has scrolled or typed since.
let scrollTarget = 0;
let userMoved = false;

function showNotes() {
  const items = problems.map((p) => h('li', {}, p.unknown
    ? t('note.unknownKey', { key: p.key })
    : t('note.badValue', { key: p.key, value: p.value, def: state.schema[p.key]?.format(state.schema[p.key].def) ?? '' })));
  replace(notesEl, items.length
    ? h('div', { class: 'note warn', 'data-testid': 'hash-note' },
      h('p', {}, t('note.hashTitle')), h('ul', {}, items),
      h('button', { type: 'button', class: 'btn small', on: { click: () => { problems = []; showNotes(); } } }, t('note.dismiss')))
    : []);
}

function renderChrome() {
  const lang = state.get('lang');
  document.documentElement.lang = lang;
  document.title = t('page.title');
  for (const b of document.querySelectorAll('[data-lang]')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  }
  document.querySelector('.skip').textContent = t('page.skip');
  document.querySelector('nav.lang')?.setAttribute('aria-label', t('page.langNav'));
  const parts = PARTS.filter((p) => p.sections.length);
  replace(toc,
    h('details', { class: 'toc-box', open: window.matchMedia('(min-width: 1100px)').matches },
      h('summary', { id: 'toc-title' }, t('page.contents')),
      parts.map((p) => h('div', { class: 'toc-part' },
        h('p', { class: 'toc-part-title' }, h('a', { href: linkTo(p.sections[0].num), 'data-sec': p.sections[0].num, 'data-part': p.id,
          on: { click: (e) => { e.preventDefault(); goTo(p.sections[0].num); } } }, t(`part.${p.id}`))),
        h('ol', {}, p.sections.map((sec) => h('li', { value: sec.num }, h('a', { href: linkTo(sec.num), 'data-sec': sec.num,
          on: { click: (e) => { e.preventDefault(); goTo(sec.num); } } }, t(`s${sec.num}.title`)))))))));
  replace(foot, h('p', {}, t('page.footer', { simd: pe?.simd ? 'SIMD' : 'scalar' })));
}

/** The current view's link with section `num` (every other value of the state kept). */
function linkTo(num) {
  return state.serializeWith('sec', num) || '#';
}

/** Keeps the table of contents' links equal to the current state (copy a link: get this view). */
function refreshLinks() {
  for (const a of toc.querySelectorAll('a[data-sec]')) a.setAttribute('href', linkTo(Number(a.dataset.sec)));
}

function goTo(num) {
  mountNow(num);
  const target = document.querySelector(`[data-section="${num}"]`);
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.querySelector('h2')?.setAttribute('tabindex', '-1');
  target.querySelector('h2')?.focus({ preventScroll: true });
  state.set('sec', num);
}

function unmount() {
  for (const m of mounted.values()) {
    try { m.dispose?.(); } catch (err) { console.warn(err); }
  }
  mounted = new Map();
}

/** Draws section `s` again from the state, in place; the other sections keep what they show. */
function remount(s) {
  const old = main.querySelector(`:scope > section[data-section="${s.num}"]`);
  if (!old) return;
  try { mounted.get(s.num)?.dispose?.(); } catch (err) { console.warn(err); }
  mounted.delete(s.num);
  pending.set(s.num, { s, ph: old, ctx: { pe, t, state, lang: state.get('lang') } });
  mountNow(s.num);
}

function render({ progressive = false } = {}) {
  unmount();
  t = translator(state.get('lang'));
  setTableCue(t('common.moreSide'));
  renderChrome();
  const ctx = { pe, t, state, lang: state.get('lang') };
  const header = h('header', { class: 'hero' },
    h('h1', {}, t('page.h1')),
    h('p', { class: 'lede' }, t('page.lede')),
    h('ol', { class: 'story' }, [1, 2, 3].map((i) => h('li', {}, rich(t(`page.story${i}`))))),
    h('p', { class: 'articles', 'data-testid': 'articles' }, t('page.articles')),
    h('p', { class: 'engine', 'data-testid': 'engine' }, t('page.engine', { simd: pe.simd ? t('page.simdYes') : t('page.simdNo') })));
  const nodes = [header];
  const showParts = PARTS.filter((p) => p.sections.length).length > 1;
  pending = new Map();
  lazy?.disconnect();
  for (const part of PARTS) {
    if (!part.sections.length) continue;
    if (showParts) nodes.push(h('p', { class: 'part-head', id: `part-${part.id}`, 'data-part': part.id }, t(`part.${part.id}`)));
    for (const s of part.sections) {
      const ph = h('section', { class: 'sec pending', id: s.id, 'data-section': s.num, 'aria-busy': 'true' },
        h('h2', {}, h('span', { class: 'sec-num', 'aria-hidden': 'true' }, String(s.num).padStart(2, '0')), t(`s${s.num}.title`)),
        h('p', { class: 'hint' }, t('page.mounting')));
      pending.set(s.num, { s, ph, ctx });
      nodes.push(ph);
    }
  }
  replace(main, nodes);
  showNotes();
  refreshLinks();
  const gen = ++generation;
  if (!progressive) {
    // A re-render (language, a pasted hash): the reader is mid-page, so everything at once.
    for (const num of [...pending.keys()]) mountNow(num);
    return;
  }
  // First view: the section the link names (or the first) now, the rest when they come near
  // the screen or the browser is idle, one per task so input is never blocked for long.
  document.body.dataset.ready = 'false';
  mountNow(state.get('sec') || SECTIONS[0].num);
  document.body.dataset.interactive = 'true';
  lazy = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) mountNow(Number(e.target.dataset.section));
  }, { rootMargin: '800px 0px' });
  for (const { ph } of pending.values()) lazy.observe(ph);
  const later = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 300 }) : setTimeout(fn, 16));
  const step = () => {
    if (gen !== generation || !pending.size) return;
    mountNow(pending.keys().next().value);
    later(step);
  };
  later(step);
}

/** Mounts section `num` in place of its placeholder (once); marks the page ready after the last. */
function mountNow(num) {
  const job = pending.get(num);
  if (!job) return;
  pending.delete(num);
  lazy?.unobserve(job.ph);
  const { s, ph, ctx } = job;
  let el;
  try {
    const t0 = performance.now();
    const m = s.mount(ctx);
    // Visible in the browser's performance panel (and read by bench/web-heatmap.mjs users).
    performance.measure(`posenc section ${s.num}`, { start: t0, end: performance.now() });
    mounted.set(s.num, m);
    el = m.el;
  } catch (err) {
    // One broken section must not take the page down; show what failed.
    console.error(`section ${s.num}:`, err);
    el = h('section', { class: 'sec', 'data-section': s.num, id: s.id },
      h('h2', {}, t(`s${s.num}.title`)), h('p', { class: 'note warn' }, t('common.failed', { message: packageError(t, err) })));
  }
  ph.replaceWith(el);
  if (!pending.size) {
    lazy?.disconnect();
    if (scrollTarget && !userMoved) document.querySelector(`[data-section="${scrollTarget}"]`)?.scrollIntoView({ block: 'start' });
    scrollTarget = 0;
    document.body.dataset.ready = 'true';
  }
}

function setLang(lang) {
  if (lang === state.get('lang')) return;
  const sec = currentSection();
  state.set('lang', lang);
  state.flush();
  rememberLang(lang);
  render();
  if (sec) document.querySelector(`[data-section="${sec}"]`)?.scrollIntoView({ block: 'start' });
}

function currentSection() {
  let best = 0;
  for (const el of document.querySelectorAll('section[data-section]')) {
    if (el.getBoundingClientRect().top < window.innerHeight * 0.4) best = Number(el.dataset.section);
  }
  return best;
}

let scrollTimer = 0;
function trackSection() {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => {
    const sec = currentSection();
    if (sec !== state.get('sec')) state.set('sec', sec);
    for (const a of toc.querySelectorAll('a[data-sec]')) {
      if (Number(a.dataset.sec) === sec) a.setAttribute('aria-current', 'location');
      else a.removeAttribute('aria-current');
    }
  }, 250);
}

async function start() {
  problems = state.read(location.hash);
  t = translator(state.get('lang'));
  document.documentElement.lang = state.get('lang');
  const loading = document.getElementById('loading');
  if (loading) loading.textContent = t('page.loading');
  try {
    pe = await createPosenc();
  } catch (err) {
    replace(main, h('p', { class: 'note warn' }, t('page.loadFailed', { message: packageError(t, err) })));
    throw err;
  }
  scrollTarget = state.get('sec');
  for (const ev of ['wheel', 'touchmove', 'keydown', 'pointerdown']) window.addEventListener(ev, () => { userMoved = true; }, { once: true, passive: true });
  render({ progressive: true });
  state.flush();
  state.onChange(() => refreshLinks());
  window.addEventListener('pagehide', () => state.flush());
  for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));
  window.addEventListener('hashchange', () => {
    // A hash typed or pasted by the visitor: validated again; a new language redraws the page,
    // otherwise only the sections whose values changed are drawn again (a training run or a
    // dropped config elsewhere on the page survives).
    problems = state.read(location.hash);
    if (state.changed.has('lang') || pending.size) render();
    else {
      for (const s of SECTIONS) if (Object.keys(s.params ?? {}).some((k) => state.changed.has(k))) remount(s);
      showNotes();
      refreshLinks();
    }
    state.flush();
    const sec = state.get('sec');
    if (sec) document.querySelector(`[data-section="${sec}"]`)?.scrollIntoView({ block: 'start' });
  });
  window.addEventListener('scroll', trackSection, { passive: true });
  const sec = state.get('sec');
  if (sec) requestAnimationFrame(() => document.querySelector(`[data-section="${sec}"]`)?.scrollIntoView({ block: 'start' }));
}

start();
