// 15. RoPE over more than one axis: image patches with a 2-D rotator (Qwen2-VL's row / column
// ladders or Pixtral's alternate rungs) and a short video with M-RoPE's (t, h, w). Every score
// is the package's (api-axes.js); the page lays out positions, picks entries and draws them.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, tex, result } from '../ui/section.js';
import { boundSlider, boundChoice, boundSelect, boundCheck } from '../ui/bind.js';
import { controlRow } from '../ui/controls.js';
import { heatmap } from '../ui/heatmap.js';
import { table } from '../ui/table.js';
import { fixed, sci, compact } from '../ui/format.js';
import { randomVectors, maxGap } from '../api.js';
import { patchScores, mropeSection, videoPositions, textTokensMatch, videoScores } from '../api-axes.js';

const NEAR = 2;        // the table around the query: Δ = −2 … 2 on each axis
const AXIS_STEPS = 6;  // the along-one-axis table: Δ = 0 … 5
const PREFIX = 3;      // text tokens before the video
const SUFFIX = 2;      // and after it

/** A signed offset as the tables print it: +2, 0, −2. */
const deltaFmt = (d) => (d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : '0');

/** "0–15" or "0, 2, 4, …, 30": a list of rung indices in a few characters. */
function rungList(list) {
  if (list.length === 0) return '—';
  const step = list.length > 1 ? list[1] - list[0] : 1;
  if (list.every((v, i) => v === list[0] + i * step) && list.length > 3) {
    return step === 1 ? `${list[0]}–${list.at(-1)}` : `${list[0]}, ${list[1]}, ${list[2]}, …, ${list.at(-1)}`;
  }
  return list.join(', ');
}

/** θ of the first three rungs and the last one of a list, as the table shows them. */
function thetaList(list, invFreq) {
  const shown = list.length > 4 ? [...list.slice(0, 3).map((i) => compact(invFreq[i], 3)), '…', compact(invFreq[list.at(-1)], 3)]
    : list.map((i) => compact(invFreq[i], 3));
  return shown.join(', ');
}

function imagePanel(ctx) {
  const { pe, t, state } = ctx;
  const winMap = heatmap({ label: t('s15.winLabel'), rowLabel: t('s15.axisRow'), colLabel: t('s15.axisCol'), format: (v) => fixed(v, 2),
    readout: (r, c, v) => t('s15.winReadout', { r, c, v: fixed(v, 4) }),
    onPick: (r, c, { start }) => (state.get('s15.drag') === 'window' ? panWindow(r, c, start) : setQuery(r, c)) });
  winMap.el.dataset.testid = 'patch-window-map';
  const relMap = heatmap({ label: t('s15.relLabel'), rowLabel: t('s15.axisDRow'), colLabel: t('s15.axisDCol'), format: (v) => fixed(v, 2),
    readout: (r, c, v, st) => t('s15.relReadout', { dr: deltaFmt(r - (st.rows >> 1)), dc: deltaFmt(c - (st.cols >> 1)), v: fixed(v, 4) }) });
  relMap.el.dataset.testid = 'patch-relative-map';
  const queryBox = h('div', { class: 'controls' });
  const nearBox = h('div');
  const rungBox = h('div');
  const convText = h('p', { 'data-testid': 'patch-conv-text' });
  const windowGap = h('output', { 'data-testid': 'patch-window-gap' });
  const relativeGap = h('output', { 'data-testid': 'patch-relative-gap' });
  const convGap = h('output', { 'data-testid': 'patch-conv-gap' });
  let querySliders = [];
  const windowSliders = [];
  let anchor = null;

  const size = () => state.get('s15.g');
  const query = () => [Math.min(state.get('s15.qr'), size() - 1), Math.min(state.get('s15.qc'), size() - 1)];

  function setQuery(r, c) {
    state.set('s15.qr', r);
    state.set('s15.qc', c);
    querySliders[0]?.set(r);
    querySliders[1]?.set(c);
    update();
  }

  /** Dragging the image under a fixed frame: the patch under the pointer follows it. */
  function panWindow(r, c, start) {
    if (!start && anchor) {
      const keys = ['s15.or', 's15.oc'];
      [anchor[0] - r, anchor[1] - c].forEach((d, i) => {
        const v = Math.max(0, Math.min(state.schema[keys[i]].max, state.get(keys[i]) + d));
        state.set(keys[i], v);
        windowSliders[i].set(v);
      });
      update();
    }
    anchor = [r, c];
  }

  function queryControls() {
    const max = size() - 1;
    querySliders = [
      boundSlider(ctx, 's15.qr', { label: t('s15.qRow'), max }, update),
      boundSlider(ctx, 's15.qc', { label: t('s15.qCol'), max }, update)];
    const [r, c] = query();
    querySliders[0].set(r);
    querySliders[1].set(c);
    replace(queryBox, querySliders.map((s) => s.el));
  }

  function update() {
    const G = size();
    const vision2d = state.get('s15.conv');
    const headDim = Number(state.get('s15.d'));
    const [q, k] = randomVectors(pe, { seed: 15, count: 2, dim: headDim });
    const at = { headDim, q, k, size: G, query: query(), offset: [state.get('s15.or'), state.get('s15.oc')] };
    const res = patchScores(pe, { ...at, vision2d });
    const other = patchScores(pe, { ...at, vision2d: vision2d === 'pixtral' ? 'qwen2-vl' : 'pixtral' });
    const [qr, qc] = at.query;
    const range = { min: Math.min(...res.relative), max: Math.max(...res.relative) };
    winMap.draw(res.scores, G, G, { ...range, mark: [qr, qc],
      rowRange: `${at.offset[0]} … ${at.offset[0] + G - 1}`, colRange: `${at.offset[1]} … ${at.offset[1] + G - 1}` });
    relMap.draw(res.relative, res.span, res.span, { ...range, mark: [G - 1, G - 1],
      rowRange: `−${G - 1} … +${G - 1}`, colRange: `−${G - 1} … +${G - 1}` });
    const deltas = Array.from({ length: 2 * NEAR + 1 }, (_, i) => i - NEAR);
    replace(nearBox, table({
      caption: t('s15.nearCaption'),
      columns: [t('s15.nearCorner'), ...deltas.map((d) => t('s15.nearCol', { d: deltaFmt(d) }))],
      rows: deltas.map((dr) => [t('s15.nearRow', { d: deltaFmt(dr) }), ...deltas.map((dc) => {
        const r = qr + dr; const c = qc + dc;
        return r >= 0 && r < G && c >= 0 && c < G ? fixed(res.scores[r * G + c], 4) : '·';
      })]),
      testid: 'patch-near',
    }));
    const { rows, cols, invFreq } = res.rungs;
    replace(rungBox, table({
      caption: t('s15.rungCaption', { d: headDim, n: invFreq.length }),
      columns: [t('s15.rungAxis'), t('s15.rungIdx'), 'θ'],
      rows: [[t('s15.rungRow'), rungList(rows), thetaList(rows, invFreq)], [t('s15.rungCol'), rungList(cols), thetaList(cols, invFreq)]],
      numeric: false, testid: 'patch-rungs',
    }));
    convText.replaceChildren(...rich(t(`s15.conv.${vision2d}`)));
    windowGap.textContent = t('s15.gapValue', { v: sci(res.windowGap, 1) });
    relativeGap.textContent = t('s15.gapValue', { v: sci(res.relativeGap, 1) });
    convGap.textContent = fixed(maxGap(res.scores, other.scores), 4);
  }

  const el = panel(t('s15.imgTitle'),
    h('p', {}, rich(t('s15.imgText'))),
    tex(String.raw`\langle R(r_q, c_q)\,q,\; R(r_k, c_k)\,k\rangle = g(q, k,\; r_k - r_q,\; c_k - c_q)`),
    controlRow(
      boundChoice(ctx, 's15.conv', { label: t('s15.conv'), options: [['qwen2-vl', 'Qwen2-VL'], ['pixtral', 'Pixtral']] }, update),
      boundSelect(ctx, 's15.d', { label: t('s15.headDim'), options: ['16', '32', '64', '80'].map((d) => [d, d]) }, update),
      boundSlider(ctx, 's15.g', { label: t('s15.grid') }, () => { queryControls(); update(); }),
      windowSliders[0] = boundSlider(ctx, 's15.or', { label: t('s15.winRow'), log: true }, update),
      windowSliders[1] = boundSlider(ctx, 's15.oc', { label: t('s15.winCol'), log: true }, update),
      boundChoice(ctx, 's15.drag', { label: t('s15.drag'), options: [['query', t('s15.dragQuery')], ['window', t('s15.dragWindow')]] }, () => {})),
    queryBox,
    h('div', { class: 'grid-2 heat-pair' },
      h('div', {}, h('h4', {}, t('s15.winTitle')), winMap.el, h('p', { class: 'hint' }, t('s15.winHint'))),
      h('div', {}, h('h4', {}, t('s15.relTitle')), relMap.el, h('p', { class: 'hint' }, t('s15.relHint')))),
    nearBox,
    result(t('s15.windowGap'), windowGap),
    result(t('s15.relativeGap'), relativeGap),
    h('h4', {}, t('s15.convTitle')),
    convText,
    rungBox,
    result(t('s15.convGap'), convGap),
    h('p', {}, rich(t('s15.imgAfter'))));
  queryControls();
  update();
  return el;
}

function videoPanel(ctx) {
  const { pe, t, state } = ctx;
  const map = heatmap({ label: t('s15.vidLabel'), rowLabel: t('s15.axisDH'), colLabel: t('s15.axisDW'), format: (v) => fixed(v, 2),
    readout: (r, c, v, st) => t('s15.vidReadout', { dh: deltaFmt(r - (st.rows >> 1)), dw: deltaFmt(c - (st.cols >> 1)), v: fixed(v, 4) }) });
  map.el.dataset.testid = 'video-map';
  const posBox = h('div');
  const axesBox = h('div');
  const match = h('output', { 'data-testid': 'video-text-match' });
  const gap = h('output', { 'data-testid': 'video-gap' });
  const sectionOut = h('output', { 'data-testid': 'video-section' });
  const dtBox = h('div', { class: 'controls' });

  const frames = () => state.get('s15.F');
  const dt = () => Math.max(-(frames() - 1), Math.min(frames() - 1, state.get('s15.dt')));

  function dtControl() {
    const s = boundSlider(ctx, 's15.dt', { label: t('s15.dt'), min: -(frames() - 1), max: frames() - 1 }, update);
    s.set(dt());
    replace(dtBox, s.el);
  }

  function update() {
    const headDim = Number(state.get('s15.vd'));
    const interleaved = state.get('s15.inter');
    const section = mropeSection(headDim, interleaved);
    const F = frames();
    const S = state.get('s15.S');
    const seq = videoPositions(pe, { prefix: PREFIX, frames: F, size: S, suffix: SUFFIX });
    sectionOut.textContent = `[${section.join(', ')}] (${t('s15.sum', { sum: section[0] + section[1] + section[2], half: headDim / 2 })})`;

    const textRow = (i) => [t('s15.posText', { i }), ...seq.at(i).map(String)];
    // A frame's row: its t, and the h and w of its first and last patch.
    const frameRow = (f) => {
      const [first, last] = [seq.at(seq.patch(f, 0, 0)), seq.at(seq.patch(f, S - 1, S - 1))];
      return [t('s15.posFrame', { f, n: S * S }), String(first[0]), `${first[1]} … ${last[1]}`, `${first[2]} … ${last[2]}`];
    };
    replace(posBox, table({
      caption: t('s15.posCaption', { n: seq.tokens }),
      columns: [t('s15.posToken'), 't', 'h', 'w'],
      rows: [
        ...seq.textTokens.slice(0, PREFIX).map(textRow),
        ...Array.from({ length: F }, (_, f) => frameRow(f)),
        ...seq.textTokens.slice(PREFIX).map(textRow),
      ],
      testid: 'video-positions',
    }));

    const heads = 2;
    const x = pe.fillUniform(new Float32Array(seq.textAt.length * heads * headDim), { seed: 151, lo: -1, hi: 1 });
    const m = textTokensMatch(pe, { headDim, section, interleaved, textAt: seq.textAt, x });
    match.textContent = t('s15.matchValue', { same: m.same, total: m.total, gap: sci(m.maxGap, 1) });
    match.dataset.same = String(m.same);
    match.dataset.total = String(m.total);

    const [q, k] = randomVectors(pe, { seed: 152, count: 2, dim: headDim });
    const base = { headDim, section, interleaved, q, k, size: S, dt: dt(), axisSteps: AXIS_STEPS };
    // The query: the middle patch of the first frame, and the top-right patch of the last frame.
    const a = videoScores(pe, { ...base, query: seq.at(seq.patch(0, S >> 1, S >> 1)) });
    const b = videoScores(pe, { ...base, query: seq.at(seq.patch(F - 1, 0, S - 1)) });
    map.draw(a.map, a.span, a.span, { mark: [S - 1, S - 1], rowRange: `−${S - 1} … +${S - 1}`, colRange: `−${S - 1} … +${S - 1}` });
    gap.textContent = t('s15.gapValue', { v: sci(maxGap(a.map, b.map), 1) });
    const spread = (v) => Math.max(...v) - Math.min(...v);
    replace(axesBox, table({
      caption: t('s15.axesCaption'),
      columns: ['Δ', t('s15.alongT'), t('s15.alongH'), t('s15.alongW')],
      rows: [...Array.from({ length: AXIS_STEPS }, (_, d) => [String(d), ...a.along.map((s) => fixed(s[d], 4))]),
        [t('s15.spread'), ...a.along.map((s) => fixed(spread(s), 4))]],
      testid: 'video-axes',
    }));
  }

  const el = panel(t('s15.vidTitle'),
    h('p', {}, rich(t('s15.vidText'))),
    tex([String.raw`\text{angle}_i = \theta_i\,t \;\; (i \in \mathcal{T}),\quad \theta_i\,h \;\; (i \in \mathcal{H}),\quad \theta_i\,w \;\; (i \in \mathcal{W})`,
      String.raw`t = h = w = p \;\Rightarrow\; \text{angle}_i = \theta_i\,p`]),
    controlRow(
      boundSelect(ctx, 's15.vd', { label: t('s15.headDim'), options: ['32', '64', '128'].map((d) => [d, d]) }, update),
      boundCheck(ctx, 's15.inter', { label: t('s15.inter') }, update),
      boundSlider(ctx, 's15.F', { label: t('s15.frames') }, () => { dtControl(); update(); }),
      boundSlider(ctx, 's15.S', { label: t('s15.size') }, update)),
    result(t('s15.section'), sectionOut),
    posBox,
    result(t('s15.match'), match),
    h('p', {}, rich(t('s15.matchText'))),
    dtBox,
    h('div', { class: 'heat-small' }, h('h4', {}, t('s15.vidMapTitle')), map.el, h('p', { class: 'hint' }, t('s15.vidMapHint'))),
    result(t('s15.vidGap'), gap),
    axesBox,
    h('p', {}, rich(t('s15.vidAfter'))));
  dtControl();
  update();
  return el;
}

export default {
  num: 15,
  id: 'multiaxis',
  params: {
    's15.conv': spec.enumOf('qwen2-vl', ['qwen2-vl', 'pixtral']),
    's15.d': spec.enumOf('64', ['16', '32', '64', '80']),
    's15.g': spec.int(12, 4, 16),
    's15.qr': spec.int(4, 0, 15),
    's15.qc': spec.int(7, 0, 15),
    's15.drag': spec.enumOf('query', ['query', 'window']),
    's15.or': spec.int(20, 0, 100000),
    's15.oc': spec.int(37, 0, 100000),
    's15.vd': spec.enumOf('64', ['32', '64', '128']),
    's15.inter': spec.bool(false),
    's15.F': spec.int(4, 2, 8),
    's15.S': spec.int(6, 3, 8),
    's15.dt': spec.int(1, -7, 7),
  },
  mount(ctx) {
    const el = shell(ctx, this, imagePanel(ctx), videoPanel(ctx));
    return { el };
  },
};
