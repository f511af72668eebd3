// Canvas heatmap: one canvas pixel per cell, scaled by CSS (image-rendering: pixelated), so a
// 256×256 redraw is a single putImageData. A legend shows the colour scale with its range; the
// pointer (or the arrow keys, when the heatmap has focus) reads out a cell.
import { h, uid } from './dom.js';
import { viridis } from './palette.js';

/**
 * heatmap({ label, rowLabel, colLabel, format, readout(row, col, value) → string, onPick(row, col, { start }) })
 * .draw(data, rows, cols, { min, max, rowRange, colRange, rowTicks, colTicks, guide, mark: [row, col] })
 * rowTicks / colTicks: one label per row / column (words), written beside the map when it has
 * at most 24; guide: { at, label } draws a line after row `at` and after column `at` (a
 * trained length L).
 * With onPick, pressing the pointer on a cell (or Enter / space on the focused cell) picks it
 * with start: true, and each new cell the pressed pointer is dragged to with start: false.
 * `mark` outlines one cell (the picked one) until the next draw.
 */
export function heatmap({ label, rowLabel, colLabel, format = (v) => v.toFixed(3), readout, palette = viridis,
  className = '', onPick }) {
  const id = uid('heat');
  const canvas = h('canvas', { class: 'heat-canvas', role: 'img', 'aria-label': label, tabindex: '0',
    'aria-describedby': `${id}-out` });
  const cursor = h('div', { class: 'heat-cursor', hidden: true });
  const marker = h('div', { class: 'heat-mark', hidden: true });
  const out = h('p', { class: 'heat-readout', id: `${id}-out`, 'aria-live': 'polite' }, '\u00a0');
  const legendCanvas = h('canvas', { class: 'legend-bar', width: 256, height: 1, 'aria-hidden': 'true' });
  const legendMin = h('span', { class: 'legend-min' });
  const legendMax = h('span', { class: 'legend-max' });
  const legend = h('div', { class: 'legend' }, legendMin, legendCanvas, legendMax);
  const guideRow = h('div', { class: 'heat-guide row', hidden: true });
  const guideCol = h('div', { class: 'heat-guide col', hidden: true });
  const frame = h('div', { class: ['heat-frame', onPick && 'pickable'] }, canvas, guideRow, guideCol, marker, cursor);
  const axisX = h('span', { class: 'axis-x' }, colLabel ?? '');
  const axisY = h('span', { class: 'axis-y' }, rowLabel ?? '');
  const rowTicks = h('div', { class: 'heat-ticks rows', 'aria-hidden': 'true' });
  const colTicks = h('div', { class: 'heat-ticks cols', 'aria-hidden': 'true' });
  const el = h('figure', { class: ['heatmap', className] },
    h('div', { class: 'heat-axes' },
      axisX,
      h('div', { class: 'heat-body' }, axisY,
        h('div', { class: 'heat-grid' }, h('span'), colTicks, rowTicks, frame))),
    legend, out);

  /** Tick labels along one side (only when there are few enough to read). */
  function ticks(box, labels, n, prop) {
    const show = Array.isArray(labels) && labels.length === n && n <= 24;
    box.replaceChildren(...(show ? labels.map((l) => h('span', {}, l)) : []));
    box.style.setProperty(prop, String(n));
  }

  // Legend gradient (drawn once).
  const lctx = legendCanvas.getContext('2d');
  const limg = lctx.createImageData(256, 1);
  limg.data.set(palette);
  lctx.putImageData(limg, 0, 0);

  let state = null;
  let focusCell = [0, 0];
  let image = null;
  const ctx = canvas.getContext('2d');

  function draw(data, rows, cols, opts = {}) {
    let { min, max } = opts;
    if (min === undefined || max === undefined) {
      let lo = Infinity; let hi = -Infinity;
      for (let i = 0; i < rows * cols; i++) { const v = data[i]; if (v < lo) lo = v; if (v > hi) hi = v; }
      min ??= lo; max ??= hi;
    }
    if (!(max > min)) { const c = Number.isFinite(min) ? min : 0; min = c - 1; max = c + 1; }
    if (canvas.width !== cols || canvas.height !== rows) {
      canvas.width = cols; canvas.height = rows;
      image = ctx.createImageData(cols, rows);
      frame.style.setProperty('--aspect', `${cols} / ${rows}`);
      frame.style.setProperty('--ar', String(cols / rows));
    }
    image ??= ctx.createImageData(cols, rows);
    const px = image.data;
    const scale = 255 / (max - min);
    for (let i = 0, n = rows * cols; i < n; i++) {
      const k = Math.max(0, Math.min(255, Math.round((data[i] - min) * scale))) * 4;
      const o = i * 4;
      px[o] = palette[k]; px[o + 1] = palette[k + 1]; px[o + 2] = palette[k + 2]; px[o + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
    // Optional index ranges after the axis names, e.g. "key position n → 1000 … 1063".
    if (opts.colRange) axisX.textContent = `${colLabel ?? ''}  ${opts.colRange}`;
    if (opts.rowRange) axisY.textContent = `${rowLabel ?? ''}  ${opts.rowRange}`;
    ticks(rowTicks, opts.rowTicks, rows, '--n');
    ticks(colTicks, opts.colTicks, cols, '--n');
    const g = opts.guide;
    guideRow.hidden = guideCol.hidden = !(g && g.at > 0 && g.at < Math.max(rows, cols));
    if (!guideRow.hidden) {
      guideRow.style.setProperty('top', `${(g.at / rows) * 100}%`);
      guideCol.style.setProperty('left', `${(g.at / cols) * 100}%`);
      guideRow.dataset.label = guideCol.dataset.label = g.label ?? '';
    }
    legendMin.textContent = format(min);
    legendMax.textContent = format(max);
    state = { data, rows, cols, min, max, ...opts };
    place(marker, opts.mark);
    if (!cursor.hidden) show(...focusCell);
  }

  /** Puts an overlay box on cell [r, c] (hidden without a cell). */
  function place(box, cell) {
    box.hidden = !cell;
    if (!cell) return;
    box.style.setProperty('left', `${(cell[1] / state.cols) * 100}%`);
    box.style.setProperty('top', `${(cell[0] / state.rows) * 100}%`);
    box.style.setProperty('width', `${100 / state.cols}%`);
    box.style.setProperty('height', `${100 / state.rows}%`);
  }

  function show(r, c) {
    if (!state) return;
    r = Math.max(0, Math.min(state.rows - 1, r));
    c = Math.max(0, Math.min(state.cols - 1, c));
    focusCell = [r, c];
    const v = state.data[r * state.cols + c];
    out.textContent = readout ? readout(r, c, v, state) : `${r}, ${c}: ${format(v)}`;
    place(cursor, [r, c]);
  }

  const cellAt = (e) => {
    const rect = canvas.getBoundingClientRect();
    return [Math.max(0, Math.min(state.rows - 1, Math.floor(((e.clientY - rect.top) / rect.height) * state.rows))),
      Math.max(0, Math.min(state.cols - 1, Math.floor(((e.clientX - rect.left) / rect.width) * state.cols)))];
  };
  let dragging = false;
  let picked = null;
  const pick = ([r, c], start = false) => {
    if (!start && picked && picked[0] === r && picked[1] === c) return;
    picked = [r, c];
    onPick(r, c, { start });
  };
  canvas.addEventListener('pointermove', (e) => {
    if (!state) return;
    const cell = cellAt(e);
    if (dragging) pick(cell);
    show(...cell);
  });
  if (onPick) {
    canvas.addEventListener('pointerdown', (e) => {
      if (!state) return;
      dragging = true;
      canvas.setPointerCapture?.(e.pointerId);
      pick(cellAt(e), true);
      show(...cellAt(e));
    });
    const stop = () => { dragging = false; };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
  }
  canvas.addEventListener('pointerleave', () => { if (document.activeElement !== canvas) cursor.hidden = true; });
  canvas.addEventListener('focus', () => show(...focusCell));
  canvas.addEventListener('blur', () => { cursor.hidden = true; });
  canvas.addEventListener('keydown', (e) => {
    if (onPick && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      pick(focusCell, true);
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    show(focusCell[0] + m[0], focusCell[1] + m[1]);
  });

  return { el, draw, canvas, readoutEl: out };
}
