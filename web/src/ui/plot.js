// uPlot line plots that follow their container's width (phone to desktop).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from './dom.js';
import { LINES } from './palette.js';
import { superscript, sig } from './format.js';

// Legend read-outs in the page's own number format (true minus, no locale grouping).
const legendValue = (u, v) => (v == null ? '—' : sig(v, 5));

// Log axes draw a line at every 1…9 × 10ⁿ: keep those faint so the curves stay in front.
const LOG_GRID = { stroke: '#efeff4', width: 0.5 };

const INT_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 1e5, 2e5, 5e5, 1e6];

/** Log-axis labels: plain numbers in the readable middle, 10ⁿ outside it, blanks between decades. */
function logLabels(u, splits) {
  return splits.map((v) => {
    if (v == null || v <= 0) return '';
    const e = Math.log10(v);
    if (Math.abs(e - Math.round(e)) > 1e-9) return '';
    return v >= 0.01 && v < 1e4 ? String(Number(v.toPrecision(3))) : `10${superscript(Math.round(e))}`;
  });
}

function lastPoint(u) {
  const n = u.data?.[0]?.length ?? 0;
  if (n) u.setLegend({ idx: n - 1 });
}

/**
 * plot({ label, xLabel, yLabel, series: [{ label, color?, dash?, points?, width?, value? }], xLog, yLog, height })
 * .update(x, ...ys) redraws with new data (arrays or typed arrays of equal length).
 */
export function plot({ label, xLabel, yLabel, series, xLog = false, yLog = false, height = 260,
  yRange, xRange, caption, xInt = false }) {
  const holder = h('div', { class: 'plot-holder' });
  const el = h('figure', { class: 'plot', role: 'group', 'aria-label': label }, holder,
    caption ? h('figcaption', {}, caption) : null);
  let chart = null;
  let data = null;

  const opts = (width) => ({
    width,
    height,
    scales: {
      x: { time: false, distr: xLog ? 3 : 1, ...(xRange ? { range: xRange } : {}) },
      y: { distr: yLog ? 3 : 1, ...(yRange ? { range: yRange } : {}) },
    },
    axes: [
      { label: xLabel, stroke: '#3b3b45', grid: { stroke: '#e4e4ea' }, ticks: { stroke: '#c8c8d0' },
        ...(xInt ? { incrs: INT_INCRS } : {}), ...(xLog ? { values: logLabels, grid: LOG_GRID } : {}) },
      { label: yLabel, stroke: '#3b3b45', grid: { stroke: '#e4e4ea' }, ticks: { stroke: '#c8c8d0' }, size: 60,
        ...(yLog ? { values: logLabels, grid: LOG_GRID } : {}) },
    ],
    legend: { show: true, live: true },
    // Without a pointer on the plot the legend reads the last point (not "—").
    hooks: { ready: [lastPoint], setData: [lastPoint], setCursor: [(u) => { if (u.cursor.idx == null) lastPoint(u); }] },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: xLabel, value: xInt ? (u, v) => (v == null ? '—' : String(Math.round(v))) : legendValue },
      ...series.map((s, i) => ({
        label: s.label,
        value: s.value ?? legendValue,
        stroke: s.color ?? LINES[i % LINES.length],
        width: s.width ?? 2,
        dash: s.dash,
        points: s.points ?? { show: false },
        paths: s.bars ? uPlot.paths.bars({ size: [0.6, 40] }) : undefined,
        fill: s.fill,
      })),
    ],
  });

  const width = () => Math.max(260, Math.floor(holder.clientWidth || el.clientWidth || 600));
  let waiting = false;
  let disposed = false;
  // The chart is made once the holder is in the document: a section builds its panels before
  // inserting them (one microtask later), or the observer sees it laid out. Never a retry loop:
  // a holder that is never inserted (a section disposed while loading) would spin forever.
  const draw = () => {
    if (chart || disposed || data === null || !holder.isConnected) return;
    chart = new uPlot(opts(width()), data, holder);
  };
  const observer = new ResizeObserver(() => {
    if (!chart) draw();
    else if (Math.abs(chart.width - width()) > 1) chart.setSize({ width: width(), height });
  });
  observer.observe(holder);

  function update(...arrays) {
    data = arrays.map((a) => Array.from(a));
    if (chart) chart.setData(data, true);
    else if (holder.isConnected) draw();
    else if (!waiting) {
      waiting = true;
      queueMicrotask(() => { waiting = false; draw(); });
    }
  }

  function dispose() { disposed = true; observer.disconnect(); chart?.destroy(); chart = null; }

  return { el, update, dispose, get chart() { return chart; } };
}
