// 18. A published model under the microscope: a config.json (bundled from the repository's
// test fixtures, or the learner's own) read by pe.modelFromConfig — its layer stack, each
// distinct rotator's ladder against the context length, the M-RoPE axes and the vision tower's
// 2-D axes (which rungs and HF columns turn on t, h, w or row, col), Llama 4's query scale, the
// float32-angle error at the last position, and the golden vectors (api-scope.js). An
// encoder-decoder config is read one stack at a time, the one the reader picks.
import { rich } from '../ui/math.js';
import { h, replace } from '../ui/dom.js';
import { spec } from '../state/hash.js';
import { shell, panel, result } from '../ui/section.js';
import { boundSelect, boundChoice } from '../ui/bind.js';
import { button, controlRow } from '../ui/controls.js';
import { table } from '../ui/table.js';
import { plot } from '../ui/plot.js';
import { LINES } from '../ui/palette.js';
import { sci, sig, int } from '../ui/format.js';
import { BUNDLED, GOLDEN_POSITIONS, inspect, inspectVision, goldenText, hasStacks } from '../api-scope.js';
import { configError } from '../ui/errors.js';

// rope.mrope.interleaved (false, true, 'hw') → the message naming its rung order.
const MROPE_ORDER = Object.freeze({ false: 's18.contiguous', true: 's18.interleaved', hw: 's18.hw' });

// θ base as the config writes it: 500 000, 10 000, 1.5e6 → 1 500 000.
const base = (b) => (Number.isInteger(b) ? int(b) : sig(b, 6));
const KIND_CLASS = { full: 'k-full', sliding: 'k-sliding', chunked: 'k-chunked' };

// The keys j a query at i attends to, as the layer record states them (README: window,
// lookahead, chunk); null for a layer that is no self-attention over positions.
function keysSeen(l, t) {
  const after = l.bidirectional ? (l.lookahead === null ? '' : ` + ${int(l.lookahead)}`) : '';
  if (l.attention === 'full') return l.bidirectional ? t('s18.seesAll') : 'j ≤ i';
  if (l.attention === 'sliding') return `i − ${int(l.window)} < j ≤ i${after}`;
  if (l.attention === 'chunked') return `⌊j / ${int(l.chunk)}⌋ = ⌊i / ${int(l.chunk)}⌋${l.bidirectional ? '' : ', j ≤ i'}`;
  if (l.attention === 'sparse') return t('s18.seesSparse');
  if (l.compressRate !== null) {  // DeepSeek-V4: the sliding branch plus compressed keys
    return `i − ${int(l.window)} < j ≤ i` + t(l.indexerSlice === null ? 's18.seesCompressed' : 's18.seesCompressedSparse',
      { rate: int(l.compressRate) });
  }
  return null;
}

// DeepSeek-V4: where each rotary sits in the head (LayerDescription.ropeSlice), once per slice.
function sliceNotes(m, t) {
  const seen = new Map();
  for (const l of m.layers) {
    if (l.ropeSlice === null) continue;
    const { head, offset } = l.ropeSlice;
    seen.set(`${head}/${offset}`, t('s18.sliceNote', { n: head - offset, head, offset, end: head - 1 }));
  }
  return [...seen.values()];
}

// Index lists as runs: 0–15 for steps of 1, "1, 4, …, 58" for a longer constant step.
function runs(list) {
  const out = [];
  for (let i = 0; i < list.length;) {
    const step = list[i + 1] - list[i];
    let j = i + 1;
    while (j + 1 < list.length && list[j + 1] - list[j] === step) j++;
    if (j - i >= 2 && step === 1) out.push(`${list[i]}–${list[j]}`);
    else if (j - i >= 3) out.push(`${list[i]}, ${list[i] + step}, …, ${list[j]}`);
    else { out.push(String(list[i])); j = i; }
    i = j + 1;
  }
  return out.join(', ');
}

export default {
  num: 18,
  id: 'microscope',
  params: {
    's18.m': spec.enumOf('llama-3.1-8b', ['llama-3.1-8b', 'qwen2.5-vl-7b', 'qwen3-vl-4b', 'ministral-3-3b', 'gemma-3-27b', 'gemma-4-e2b', 'llama-4-scout', 'deepseek-v3', 'phi-3.5-mini', 'smollm3-3b', 'command-r', 'gpt-j-6b', 't5gemma-2-270m', 'privacy-filter', 'nanochat', 'modernbert-base']),
    // The stack of an encoder-decoder config (offered only for such a config).
    's18.stack': spec.enumOf('decoder', ['decoder', 'encoder']),
  },
  mount(ctx) {
    const { pe, t, state } = ctx;
    let config = null;        // the parsed config on show
    let name = '';            // its file name for the download
    let stack;                // the stack read ('encoder' | 'decoder'), undefined for a single-stack config
    let last = null;          // the latest config read, shown again when the stack changes
    let ladder = null;
    let run = 0;              // the latest load wins; dispose ends every load in flight

    const source = h('p', { class: 'hint', 'data-testid': 'scope-source' });
    const error = h('p', { class: 'hint error', role: 'alert', 'data-testid': 'scope-error' });
    const body = h('div', { 'data-testid': 'scope-body' });
    // The golden vectors of one tower, made when clicked ('text': the decoder's; 'vision').
    function goldenLink(tower, testid, label, suffix) {
      const a = h('a', { class: 'btn', 'data-testid': testid, download: 'golden-vectors.json', href: '#' }, label);
      a.addEventListener('click', (e) => {
        if (config === null) { e.preventDefault(); return; }
        let text;
        try { text = goldenText(pe, config, tower, tower === 'text' ? stack : undefined); } catch (err) { e.preventDefault(); showError(err); return; }
        URL.revokeObjectURL(a.href);
        a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
        a.download = `${name.replace(/\.json$/i, '')}${tower === 'text' && stack !== undefined ? `.${stack}` : ''}${suffix}.golden.json`;
      });
      return a;
    }
    const download = goldenLink('text', 'scope-download', t('s18.download'), '');
    const visionDownload = goldenLink('vision', 'scope-vision-download', t('s18.visionDownload'), '.vision');

    function showError(err) {
      error.textContent = configError(t, err);
      source.textContent = '';
      replace(body);
      download.hidden = true;
    }

    function show(parsed, label) {
      error.textContent = '';
      last = [parsed, label];
      config = parsed;
      name = label;
      ladder?.dispose();
      ladder = null;
      // The stack choice shows when the package needs one for this config, and only then.
      stack = hasStacks(pe, parsed) ? state.get('s18.stack') : undefined;
      stackRow.hidden = stack === undefined;
      if (stack === undefined) dropStack();
      let m;
      try { m = inspect(pe, parsed, stack); } catch (err) { config = null; showError(err); return; }
      download.hidden = false;
      const about = { name: label, type: m.modelType || '—', family: m.family, n: m.layers.length };
      source.textContent = stack === undefined ? t('s18.source', about) : t('s18.sourceStack', { ...about, stack: t(`s18.stackName.${stack}`) });
      replace(body, stackPanel(m), ladderPanel(m), mropePanel(m), visionPanel(inspectVision(pe, parsed)), queryPanel(m), errorPanel(m),
        panel(t('s18.goldenTitle'), h('p', {}, rich(t('s18.goldenText', { p: GOLDEN_POSITIONS.join(', ') }))), download));
    }

    function stackPanel(m) {
      const strip = h('div', { class: 'layer-strip', 'data-testid': 'scope-strip', role: 'img',
        'aria-label': t('s18.stripLabel', { n: m.layers.length }) },
        m.layers.map((l) => h('span', { class: `layer ${l.rope === null ? 'k-none' : ''} ${KIND_CLASS[l.attention] ?? 'k-other'}${l.bidirectional ? ' bidi' : ''}${l.crossAttention !== null ? ' cross' : ''}`,
          title: `${l.index}: ${l.rope ?? t('s18.noRope')} · ${t(`s18.att.${l.attention}`)}${l.bidirectional ? ` · ${t('s18.bidirectional')}` : ''}`
            + (l.crossAttention === null ? '' : ` ${t(`s18.crossShort.${l.crossAttention}`)}`) })));
      const enc = Object.fromEntries(m.encodings.map((e) => [e.key, e]));
      const rows = m.kinds.map(({ layer: l, indices, ranges }) => {
        const e = l.rope === null ? null : enc[l.rope];
        const attention = t(`s18.att.${l.attention}`) + (l.window !== null ? ` ${int(l.window)}` : '') + (l.chunk !== null ? ` ${int(l.chunk)}` : '')
          + (l.bidirectional ? ` · ${t('s18.bidirectional')}` : '') + (l.crossAttention === null ? '' : ` ${t(`s18.crossShort.${l.crossAttention}`)}`);
        return [ranges.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(', '), String(indices.length),
          attention, keysSeen(l, t) ?? '—',
          e === null ? t('s18.noRope') : e.key + (e.direction === 'inverse' ? ` (${t('s18.inverseShort')})` : ''),
          e === null ? '—' : base(e.base), e === null ? '—' : String(e.headDim)];
      });
      // What only some models have, said under the table when this one has it.
      const has = (f) => m.layers.some(f);
      const notes = [
        has((l) => l.bidirectional) && t('s18.bidiNote'),
        has((l) => l.crossAttention === 'separate') && t('s18.crossNote.separate'),
        has((l) => l.crossAttention === 'merged') && t('s18.crossNote.merged'),
        m.encodings.some((e) => e.direction === 'inverse') && t('s18.inverseNote'),
        ...sliceNotes(m, t),
      ].filter(Boolean);
      return panel(t('s18.stackTitle'), h('p', {}, rich(t('s18.stackText'))), strip,
        h('p', { class: 'hint' }, t('s18.stripKey'), has((l) => l.bidirectional || l.crossAttention !== null) ? [' ', t('s18.stripKeyMore')] : null),
        table({ caption: t('s18.stackCaption'), columns: [t('s18.layers'), t('s18.count'), t('s18.attention'), t('s18.sees'), t('s18.rope'), 'θ base', t('s18.headDim')],
          rows, testid: 'scope-stack', reflow: true, className: 'layer-kinds' }),
        notes.map((n) => h('p', { class: 'hint', 'data-testid': 'scope-stack-note' }, rich(n))));
    }

    function ladderPanel(m) {
      const ctxLen = m.last + 1;
      const rungs = Math.max(...m.encodings.map((e) => e.invFreq.length), 1);
      // Each rotary in its colour; thin dashes in the same colour: the same rotary unscaled.
      const plain = m.encodings.map((e, i) => [e, i]).filter(([e]) => e.unscaled !== null);
      ladder = plot({ label: t('s18.ladderLabel'), xLabel: t('s18.rung'), yLabel: t('s18.wavelength'), yLog: true, xInt: true,
        series: [...m.encodings.map((e, i) => ({ label: `${e.key} (${e.scaling.type})`, color: LINES[i % LINES.length] })),
          ...plain.map(([e, i]) => ({ label: t('s18.unscaled', { key: e.key }), color: LINES[i % LINES.length], dash: [2, 3], width: 1.5 })),
          { label: t('s18.ctxLine', { L: int(ctxLen) }), color: LINES[m.encodings.length % LINES.length], dash: [6, 4],
            value: (u, v) => (v == null ? '—' : int(v)) }] });
      const xs = [...Array(rungs).keys()];
      const turns = (f) => xs.map((i) => (i < f.length && f[i] > 0 ? (2 * Math.PI) / f[i] : null));
      ladder.update(xs, ...m.encodings.map((e) => turns(e.invFreq)), ...plain.map(([e]) => turns(e.unscaled)), xs.map(() => ctxLen));
      const rows = m.encodings.map((e) => [e.key, e.scaling.type, base(e.base), `${e.rotaryDim} / ${e.headDim}`,
        String(e.passThrough), String(e.zeroPairs), e.moved === null ? '—' : `${e.moved} / ${e.invFreq.length}`, sig(e.attentionFactor, 6),
        String(e.invFreq.filter((v) => v > 0 && (2 * Math.PI) / v > ctxLen).length)]);
      const ctxNote = m.context === null ? t('s18.noContext', { L: int(ctxLen) }) : t('s18.context', { L: int(ctxLen), key: m.context.key });
      return panel(t('s18.ladderTitle'), h('p', {}, rich(t('s18.ladderText'))), h('p', { class: 'hint', 'data-testid': 'scope-context' }, ctxNote),
        ladder.el,
        table({ caption: t('s18.encCaption'), columns: [t('s18.rope'), t('s18.scaling'), 'θ base', t('s18.dims'), t('s18.pass'), t('s18.zero'),
          t('s18.moved'), t('s18.factor'), t('s18.beyond')], rows, testid: 'scope-encodings', reflow: true }),
        h('p', { class: 'hint' }, rich(t('s18.ladderAfter'))));
    }

    // Which rungs and HF cos/sin columns turn on each axis (api-scope.js axesOf), as two strips
    // and a table; `unit` names what a position counts on these axes (tokens, patches).
    function axesView(key, axes, unit, testid) {
      const cell = (x, i, what) => h('span', { class: `cell ax-${x < 0 ? 'none' : x}`, 'data-axis': x < 0 ? '' : axes.axes[x].name,
        title: `${what} ${i}: ${x < 0 ? 'θ = 0' : axes.axes[x].name}` });
      const strip = (list, what, label) => h('div', { class: 'axis-strip', role: 'img', 'aria-label': label, 'data-testid': `${testid}-${what}` },
        list.map((x, i) => cell(x, i, what === 'rungs' ? t('s18.rung') : t('s18.column'))));
      const rows = axes.axes.map((a) => [t(`s18.axisName.${a.name}`), String(a.rungs.length), runs(a.rungs), runs(a.columns),
        a.shortest === null ? '—' : `${sig(a.shortest, 3)} – ${sig(a.longest, 3)}`]);
      return [
        h('p', { class: 'hint' }, t('s18.stripRungs', { key, n: axes.rungs.length })), strip(axes.rungs, 'rungs', t('s18.stripRungsLabel', { key })),
        h('p', { class: 'hint' }, t('s18.stripColumns', { key, n: axes.columns.length })), strip(axes.columns, 'columns', t('s18.stripColumnsLabel', { key })),
        h('p', { class: 'hint' }, t(`s18.axesKey.${axes.kind}`)),
        table({ caption: t('s18.axesCaption', { key }), columns: [t('s18.axis'), t('s18.rungs'), t('s18.rungList'), t('s18.columns'), t('s18.turns', { unit })],
          rows, testid, reflow: true, className: 'axes-table' }),
      ];
    }

    function mropePanel(m) {
      const withAxes = m.encodings.filter((e) => e.axes !== null);
      if (withAxes.length === 0) return null;
      return panel(t('s18.mropeTitle'), h('p', {}, rich(t('s18.mropeText'))),
        withAxes.map((e) => [
          h('p', { 'data-testid': 'scope-mrope-config' }, rich(t('s18.mropeConfig', { key: e.key, section: `[${e.axes.mrope.section.join(', ')}]`,
            order: t(MROPE_ORDER[String(e.axes.mrope.interleaved)]) }))),
          axesView(e.key, e.axes, t('s18.unitTokens'), 'scope-mrope')]));
    }

    function visionPanel(v) {
      if (v === null) return null;
      if (v.error !== undefined) {
        return panel(t('s18.visionTitle'), h('p', { class: 'hint', 'data-testid': 'scope-vision-error' }, t('s18.visionRefused', { message: configError(t, v.error) })));
      }
      return panel(t('s18.visionTitle'), h('p', {}, rich(t('s18.visionText'))),
        v.encodings.map((e) => [
          h('p', { 'data-testid': 'scope-vision-source' }, rich(t('s18.visionSource', { type: v.modelType, n: v.layers, key: e.key,
            kind: e.vision2d, hd: e.headDim, rd: e.rotaryDim, base: base(e.base) }))),
          axesView(e.key, e.axes, t('s18.unitPatches'), 'scope-vision')]),
        h('p', {}, rich(t('s18.visionGolden'))), visionDownload);
    }

    function queryPanel(m) {
      if (m.queryScale === null) return null;
      const q = m.queryScale;
      const rows = q.positions.filter((p, i) => i % 3 === 0 || i === q.positions.length - 1)
        .map((p) => [int(p), sig(q.values[q.positions.indexOf(p)], 6)]);
      const n = m.layers.filter((l) => l.queryScale !== null).length;
      return panel(t('s18.qsTitle'), h('p', {}, rich(t('s18.qsText', { n, fs: int(q.scale.floorScale), a: String(Number(q.scale.attnScale.toPrecision(6))), o: q.scale.offset }))),
        table({ caption: t('s18.qsCaption'), columns: [t('s18.position'), t('s18.scale')], rows, testid: 'scope-qscale' }));
    }

    function errorPanel(m) {
      const rows = m.encodings.map((e) => [e.key, sci(e.errors.float32, 2), sci(e.errors.posenc, 2)]);
      return panel(t('s18.errTitle', { p: int(m.last) }), h('p', {}, rich(t('s18.errText', { p: int(m.last) }))),
        table({ caption: t('s18.errCaption', { p: int(m.last) }), columns: [t('s18.rope'), t('s18.errF32'), t('s18.errPe')], rows, testid: 'scope-errors', reflow: true }),
        h('p', { class: 'hint' }, rich(t('s18.errAfter'))));
    }

    async function loadBundled() {
      const key = state.get('s18.m');
      const mine = ++run;
      let mod;
      try { mod = await BUNDLED[key][1](); } catch (err) { if (mine === run) showError(err); return; }
      if (mine !== run) return;
      show(mod.default, `${key}.json`);
    }

    function readText(text, label) {
      run++;
      select.value = '';
      let parsed;
      try { parsed = JSON.parse(text); } catch {
        config = null; last = null; stackRow.hidden = true; dropStack(); error.textContent = t('s18.badJson');
        source.textContent = ''; replace(body); download.hidden = true; return;
      }
      show(parsed, label);
    }

    const stackChoice = boundChoice(ctx, 's18.stack', { label: t('s18.stackPick'),
      options: [['decoder', t('s18.stackName.decoder')], ['encoder', t('s18.stackName.encoder')]] }, () => { if (last !== null) show(...last); });
    const stackRow = h('div', { 'data-testid': 'scope-stack-pick', hidden: true },
      h('p', { class: 'hint' }, rich(t('s18.stackPickText'))), controlRow(stackChoice));
    // A config without stacks: the stack goes back to its default, so the link carries no s18.stack.
    function dropStack() {
      state.set('s18.stack', 'decoder');
      stackChoice.set('decoder');
    }
    const picker = boundSelect(ctx, 's18.m', { label: t('s18.pick'), options: this.params['s18.m'].values.map((k) => [k, BUNDLED[k][0]]) }, loadBundled);
    // A config of the learner's own shows in the picker as such, so any bundled one can be picked again.
    const select = picker.el.querySelector('select');
    select.append(h('option', { value: '', disabled: true, hidden: true }, t('s18.own')));
    const fileInput = h('input', { type: 'file', accept: '.json,application/json', 'data-testid': 'scope-file', 'aria-label': t('s18.fileLabel') });
    fileInput.addEventListener('change', async () => {
      const f = fileInput.files?.[0];
      if (f) readText(await f.text(), f.name);
    });
    const paste = h('textarea', { rows: 4, 'data-testid': 'scope-paste', 'aria-label': t('s18.pasteLabel'), placeholder: '{ "model_type": … }' });
    const read = button(t('s18.read'), () => readText(paste.value, 'config.json'), { 'data-testid': 'scope-read' });
    const drop = h('div', { class: 'drop-zone', 'data-testid': 'scope-drop' }, rich(t('s18.drop')), ' ', fileInput);
    drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', async (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const f = e.dataTransfer?.files?.[0];
      if (f) readText(await f.text(), f.name);
    });

    const el = shell(ctx, this,
      panel(t('s18.pickTitle'), controlRow(picker), drop,
        h('div', { class: 'paste' }, h('label', {}, t('s18.pasteLabel')), paste, read), source, stackRow, error),
      body);
    loadBundled();
    return { el, dispose: () => { run++; ladder?.dispose(); URL.revokeObjectURL(download.href); URL.revokeObjectURL(visionDownload.href); } };
  },
};
