// Entry: load the posenc package, read the URL hash, and mount the sixteen sections.
// Every number on the page comes from the package; this file only wires state and language.
import { createPosenc } from 'posenc';
import './styles/main.css';
import { h, replace } from './ui/dom.js';
import { HashState, spec } from './state/hash.js';
import { translator, storedLang, browserLang, rememberLang } from './i18n/index.js';
import { SECTIONS } from './sections/index.js';
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
    sec: spec.int(0, 0, SECTIONS.length),
  };
  for (const s of SECTIONS) Object.assign(schema, s.params ?? {});
  return schema;
}

const state = new HashState(buildSchema());
// The language is always written, so a shared link opens in the language it was made in.
state.always = new Set(['lang']);
let pe = null;
let mounted = [];
let problems = [];
let t = translator('en');

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
  replace(toc,
    h('details', { class: 'toc-box', open: window.matchMedia('(min-width: 1100px)').matches },
      h('summary', { id: 'toc-title' }, t('page.contents')),
      h('ol', {}, SECTIONS.map((s) => h('li', {}, h('a', { href: `#sec=${s.num}`, 'data-sec': s.num,
        on: { click: (e) => { e.preventDefault(); goTo(s.num); } } }, t(`s${s.num}.title`)))))));
  replace(foot, h('p', {}, t('page.footer', { simd: pe?.simd ? 'SIMD' : 'scalar' })));
}

function goTo(num) {
  const target = document.querySelector(`[data-section="${num}"]`);
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.querySelector('h2')?.setAttribute('tabindex', '-1');
  target.querySelector('h2')?.focus({ preventScroll: true });
  state.set('sec', num);
}

function unmount() {
  for (const m of mounted) {
    try { m.dispose?.(); } catch (err) { console.warn(err); }
  }
  mounted = [];
}

function render() {
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
  for (const s of SECTIONS) {
    try {
      const t0 = performance.now();
      const m = s.mount(ctx);
      // Visible in the browser's performance panel (and read by bench/web-heatmap.mjs users).
      performance.measure(`posenc section ${s.num}`, { start: t0, end: performance.now() });
      mounted.push(m);
      nodes.push(m.el);
    } catch (err) {
      // One broken section must not take the page down; show what failed.
      console.error(`section ${s.num}:`, err);
      nodes.push(h('section', { class: 'sec', 'data-section': s.num, id: s.id },
        h('h2', {}, t(`s${s.num}.title`)), h('p', { class: 'note warn' }, t('common.failed', { message: packageError(t, err) }))));
    }
  }
  replace(main, nodes);
  showNotes();
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
  render();
  state.flush();
  window.addEventListener('pagehide', () => state.flush());
  for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));
  window.addEventListener('hashchange', () => {
    // A hash typed or pasted by the visitor: validate it again and redraw everything from it.
    problems = state.read(location.hash);
    render();
    state.flush();
    const sec = state.get('sec');
    if (sec) document.querySelector(`[data-section="${sec}"]`)?.scrollIntoView({ block: 'start' });
  });
  window.addEventListener('scroll', trackSection, { passive: true });
  const sec = state.get('sec');
  if (sec) requestAnimationFrame(() => document.querySelector(`[data-section="${sec}"]`)?.scrollIntoView({ block: 'start' }));
  document.body.dataset.ready = 'true';
}

start();
