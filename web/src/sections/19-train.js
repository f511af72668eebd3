// 19. Train short, test long: tiny transformers trained in the visitor's browser with each
// encoding (pe.train, in a Web Worker: train-worker.js), live loss curves, accuracy against
// length, attention maps of a trained head beside the untrained one, and a reading of the
// outcome next to each article's claim. The page only averages what the package returns.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel } from '../ui/section.js';
import { boundChoice, boundSelect, boundSlider, presetButton } from '../ui/bind.js';
import { checkbox, controlRow, button } from '../ui/controls.js';
import { plot } from '../ui/plot.js';
import { heatmap } from '../ui/heatmap.js';
import { table } from '../ui/table.js';
import { fixed } from '../ui/format.js';
import { LANGS } from '../i18n/index.js';

export const ENCODINGS = ['none', 'sinusoidal', 'learned', 't5', 'alibi', 'rope-half', 'rope-interleaved'];
const TASKS = ['recall', 'copy', 'induction', 'text'];
const SYMBOLS = 'abcdefghijklmnop'; // the tasks' 16 symbols as letters; copy's separator is '|'
const DEFAULT_ENC = [0, 1, 2, 4, 5]; // the recorded page run: none, sinusoidal, learned, alibi, rope-half
// The claims of the articles, each read against this run's encoding that it is about.
const CLAIMS = [
  { key: 'sin', encoding: 'sinusoidal', expects: 'extends' },
  { key: 'learned', encoding: 'learned', expects: 'fails' },
  { key: 't5', encoding: 't5', expects: 'extends' },
  { key: 'rope', encoding: 'rope-half', expects: 'extends' },
];

const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;

export default {
  num: 19,
  id: 'train',
  params: {
    's19.task': spec.enumOf('recall', ['recall', 'copy', 'induction', 'text']),
    's19.enc': spec.intList([0, 1, 2, 4, 5], 0, 6, 7), // indexes into ENCODINGS; default DEFAULT_ENC
    's19.L': spec.enumOf('64', ['16', '32', '64']),
    's19.steps': spec.int(300, 10, 2000),
    's19.seeds': spec.int(3, 1, 5),
    's19.head': spec.int(1, 1, 2),
  },
  mount(ctx) {
    const { t, state } = ctx;
    let worker = null;
    let running = false;
    let runState = null; // the run being drawn: settings, curves, scores
    const status = h('p', { class: 'hint', 'data-testid': 'train-status', 'aria-live': 'polite' }, t('s19.idle'));
    const progress = h('progress', { max: 1, value: 0, 'data-testid': 'train-progress' });
    const lossHolder = h('div', { 'data-testid': 'train-loss' });
    const accHolder = h('div', { 'data-testid': 'train-accuracy' });
    const tableHolder = h('div');
    const reading = h('div', { class: 'reading', 'data-testid': 'train-reading' });
    const mapsHolder = h('div', { class: 'head-grid', 'data-testid': 'train-maps' });
    const input = h('input', { type: 'text', name: 's19.input', value: 'abcdefghabcdefgh', autocomplete: 'off',
      spellcheck: 'false', 'aria-label': t('s19.input') });
    // The text task's training text: the learner's, or by default this page's own prose in
    // the page's language (every string of its dictionary, markup and placeholders included).
    const pageText = () => Object.values(LANGS[t.lang] ?? LANGS.en).flat().join('\n');
    const textBox = h('textarea', { name: 's19.text', rows: 4, spellcheck: 'false', 'aria-label': t('s19.text'),
      placeholder: t('s19.textPlaceholder') });
    const inputMsg = h('p', { class: 'hint error', role: 'status', 'data-testid': 'train-input-error' });
    let lossPlot = null;
    let accPlot = null;

    const encodings = () => state.get('s19.enc').filter((v, i, a) => a.indexOf(v) === i).map((i) => ENCODINGS[i]);

    // One check box per encoding, bound to the list s19.enc.
    const boxes = ENCODINGS.map((name, i) => checkbox({ label: name, name: `s19.enc.${name}`,
      value: state.get('s19.enc').includes(i),
      onChange: (on) => {
        const now = state.get('s19.enc').filter((v) => v !== i);
        const next = on ? [...now, i].sort((a, b) => a - b) : now;
        if (next.length) state.set('s19.enc', next);
        else boxes[i].set(true); // at least one encoding
      } }));

    // Ends the run on screen; `keep` leaves a finished run's worker alive, holding its models
    // for the attention maps (a cancelled or failed run's worker is terminated).
    function stop(message, keep = false) {
      if (!keep) { worker?.terminate(); worker = null; }
      running = false;
      runBtn.disabled = false;
      cancelBtn.disabled = true;
      if (message) status.textContent = message;
    }

    function start() {
      stop();
      const settings = { task: state.get('s19.task'), encodings: encodings(), length: Number(state.get('s19.L')),
        steps: state.get('s19.steps'), seeds: state.get('s19.seeds') };
      if (settings.task === 'text') settings.text = textBox.value.trim() || pageText();
      settings.evalLengths = [1, 2, 4, 8].map((k) => k * settings.length);
      runState = { settings, sums: new Map(), counts: new Map(), scores: new Map(), done: 0,
        total: settings.encodings.length * settings.seeds * settings.steps, started: performance.now() };
      for (const e of settings.encodings) {
        runState.sums.set(e, new Float64Array(settings.steps));
        runState.counts.set(e, new Float64Array(settings.steps));
        runState.scores.set(e, []);
      }
      lossPlot?.dispose();
      accPlot?.dispose();
      lossPlot = plot({ label: t('s19.lossLabel'), xLabel: t('s19.step'), yLabel: t('s19.loss'), xInt: true,
        series: settings.encodings.map((e) => ({ label: e })) });
      accPlot = plot({ label: t('s19.accLabel'), xLabel: t('s19.length'), yLabel: t('s19.accuracy'), xLog: true,
        yRange: [0, 100], series: settings.encodings.map((e) => ({ label: e, points: { show: true } })) });
      replace(lossHolder, lossPlot.el);
      replace(accHolder, accPlot.el);
      replace(tableHolder);
      replace(reading);
      replace(mapsHolder);
      progress.value = 0;
      runBtn.disabled = true;
      cancelBtn.disabled = false;
      status.textContent = t('s19.starting');
      running = true;
      worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = ({ data }) => onMessage(data);
      worker.onerror = (e) => stop(t('s19.failed', { message: e.message ?? '' }));
      worker.postMessage({ type: 'run', ...settings });
    }

    function drawLoss() {
      const { settings, sums, counts } = runState;
      const x = Array.from({ length: settings.steps }, (_, i) => i + 1);
      lossPlot.update(x, ...settings.encodings.map((e) => {
        const s = sums.get(e), c = counts.get(e);
        return Array.from(s, (v, i) => (c[i] ? v / c[i] : null));
      }));
    }

    // Mean accuracy (%) over the seeds scored so far, per encoding and evaluation length.
    function meanAccuracy(e) {
      const runs = runState.scores.get(e);
      return runState.settings.evalLengths.map((_, i) => (runs.length ? 100 * mean(runs.map((r) => r[i].accuracy)) : null));
    }

    function drawScores() {
      const { settings } = runState;
      accPlot.update(settings.evalLengths, ...settings.encodings.map(meanAccuracy));
    }

    function onMessage(m) {
      if (!runState) return;
      if (m.type === 'progress') {
        const s = runState.sums.get(m.encoding), c = runState.counts.get(m.encoding);
        for (let i = 0; i < m.loss.length; i++) { s[m.from + i] += m.loss[i]; c[m.from + i] += 1; }
        runState.done += m.loss.length;
        progress.value = runState.done / runState.total;
        status.textContent = t('s19.progress', { encoding: m.encoding, seed: m.seed, step: m.from + m.loss.length,
          steps: runState.settings.steps });
        drawLoss();
      } else if (m.type === 'scores') {
        runState.scores.get(m.encoding).push(m.scores);
        drawScores();
      } else if (m.type === 'done') {
        const seconds = (performance.now() - runState.started) / 1000;
        stop(t('s19.done', { s: seconds.toFixed(1), binary: m.simd ? 'SIMD' : 'scalar' }), true);
        status.dataset.seconds = seconds.toFixed(1);
        drawTable();
        drawReading();
        askAttention();
      } else if (m.type === 'attention') {
        drawMaps(m.maps);
      } else if (m.type === 'error' && m.during === 'attention') {
        inputMsg.textContent = m.message;
      } else if (m.type === 'error') {
        stop(t('s19.failed', { message: m.message }));
      }
    }

    function drawTable() {
      const { settings } = runState;
      replace(tableHolder, table({
        caption: t('s19.tableCaption', { task: settings.task, L: settings.length, steps: settings.steps, seeds: settings.seeds }),
        columns: [t('s19.encoding'), ...settings.evalLengths.map((n, i) => (i ? `${2 ** i}L = ${n}` : `L = ${n}`))],
        rows: settings.encodings.map((e) => [e, ...meanAccuracy(e).map((v) => `${fixed(v, 1)} %`)]),
        testid: 'train-table',
        reflow: true,
      }));
    }

    function drawReading() {
      const { settings } = runState;
      const items = CLAIMS.map(({ key, encoding, expects }) => {
        const acc = settings.encodings.includes(encoding) ? meanAccuracy(encoding) : null;
        let verdict;
        if (!acc) verdict = t('s19.notRun', { encoding });
        else {
          const [atL, atFar] = [acc[0], acc[acc.length - 1]];
          // Exact tasks: learned means most answers right at L; next-byte prediction has no such bar.
          const learned = settings.task === 'text' || atL >= 50;
          const extended = atFar >= 0.9 * atL;
          const held = !learned ? null : expects === 'extends' ? extended : atFar < 0.5 * atL;
          verdict = t(held === null ? 's19.unlearned' : held ? `s19.held.${expects}` : 's19.notHeld',
            { encoding, L: fixed(atL, 1), far: fixed(atFar, 1), n: settings.evalLengths.at(-1) });
        }
        return h('li', { 'data-claim': key }, h('p', {}, rich(t(`s19.claim.${key}`))), h('p', {}, rich(verdict)),
          h('p', { class: 'hint' }, rich(t(`s19.lit.${key}`))));
      });
      replace(reading, h('ul', { class: 'claims' }, items), h('p', { class: 'hint' }, rich(t('s19.recorded'))));
    }

    // The typed input as the task's tokens (letters a–p; '|' is copy's separator).
    function tokens() {
      const text = input.value.trim().toLowerCase();
      const alphabet = state.get('s19.task') === 'copy' ? `${SYMBOLS}|` : SYMBOLS;
      const out = [];
      for (const c of text) {
        const i = alphabet.indexOf(c);
        if (i < 0 || out.length >= 64) return null;
        out.push(i);
      }
      return out.length >= 2 ? out : null;
    }

    function askAttention() {
      if (runState?.settings.task === 'text') {
        inputMsg.textContent = '';
        if (worker && !running) worker.postMessage({ type: 'attention', text: input.value.slice(0, 64) });
        return;
      }
      const tk = tokens();
      inputMsg.textContent = tk ? '' : t('s19.badInput');
      if (tk && worker && !running) worker.postMessage({ type: 'attention', tokens: tk });
    }

    function drawMaps(maps) {
      const letters = runState?.settings.task === 'text'
        ? [...new TextEncoder().encode(input.value.slice(0, 64))].map((b) => (b < 128 ? String.fromCharCode(b) : '·'))
        : [...input.value.trim().toLowerCase()];
      const head = state.get('s19.head') - 1;
      replace(mapsHolder, maps.flatMap(({ encoding, trained, fresh }) => [['trained', trained], ['fresh', fresh]].map(([kind, a]) => {
        const T = a.length;
        const hm = heatmap({ label: t(`s19.map.${kind}`, { encoding }), rowLabel: t('s19.axisQ'), colLabel: t('s19.axisK'),
          format: (v) => fixed(v, 2), readout: (r, c, v) => t('s19.readout', { q: letters[r], k: letters[c], v: fixed(v, 3) }) });
        const last = (a.layers - 1) * a.heads + Math.min(head, a.heads - 1);
        hm.draw(a.weights.subarray(last * T * T, (last + 1) * T * T), T, T, { min: 0, max: 1, rowTicks: letters, colTicks: letters });
        hm.el.dataset.testid = `train-map-${encoding}-${kind}`;
        return h('div', { class: 'head' }, h('h4', {}, t(`s19.map.${kind}`, { encoding })), hm.el);
      })));
    }

    const runBtn = button(t('s19.run'), start, { 'data-testid': 'train-run' });
    const cancelBtn = button(t('s19.cancel'), () => stop(t('s19.cancelled')), { 'data-testid': 'train-cancel' });
    cancelBtn.disabled = true;
    input.addEventListener('change', askAttention);

    const taskCtl = boundChoice(ctx, 's19.task', { label: t('s19.task'),
      options: TASKS.map((k) => [k, t(`s19.task.${k}`)]) }, () => {});
    const lCtl = boundSelect(ctx, 's19.L', { label: t('s19.L'), options: ['16', '32', '64'].map((v) => [v, v]) }, () => {});
    const stepsCtl = boundSlider(ctx, 's19.steps', { label: t('s19.steps') }, () => {});
    const seedsCtl = boundSlider(ctx, 's19.seeds', { label: t('s19.seeds') }, () => {});
    const headCtl = boundSlider(ctx, 's19.head', { label: t('s19.head') }, askAttention);
    const preset = presetButton(ctx, t('s19.preset'), () => [['s19.task', 'recall', taskCtl], ['s19.L', '64', lCtl],
      ['s19.steps', 300, stepsCtl], ['s19.seeds', 3, seedsCtl]], () => {
      state.set('s19.enc', DEFAULT_ENC);
      ENCODINGS.forEach((_, i) => boxes[i].set(DEFAULT_ENC.includes(i)));
    });

    const el = shell(ctx, this,
      controlRow(taskCtl, lCtl, stepsCtl, seedsCtl),
      h('div', { class: 'control list train-text' }, h('label', {}, t('s19.text')), textBox),
      h('fieldset', { class: 'control encodings' }, h('legend', {}, t('s19.encodings')), boxes.map((b) => b.el)),
      h('div', { class: 'controls' }, preset, runBtn, cancelBtn),
      h('div', { class: 'train-status' }, progress, status),
      panel(t('s19.lossTitle'), lossHolder),
      panel(t('s19.accTitle'), accHolder, tableHolder),
      panel(t('s19.readingTitle'), reading),
      panel(t('s19.mapsTitle'), h('p', {}, rich(t('s19.mapsText'))),
        h('div', { class: 'controls' }, h('div', { class: 'control list' }, h('label', {}, t('s19.input')), input, inputMsg), headCtl.el),
        mapsHolder),
      h('p', { class: 'hint' }, rich(t('s19.note'))));
    return { el, dispose() { stop(); lossPlot?.dispose(); accPlot?.dispose(); } };
  },
};
