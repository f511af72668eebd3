// Article 002 ("RoPE explained simply") on the page: its use cases as scores at the distances
// it names, and its three misconceptions, each tested with package numbers.
import { h } from '../ui/dom.js';
import { panel } from '../ui/section.js';
import { rich } from '../ui/math.js';
import { table } from '../ui/table.js';
import { fixed } from '../ui/format.js';
import { randomVectors, rotateVector } from '../api.js';

const DIM = 64;

function scoreAt(pe, q, k, m, n, mode) {
  return pe.scores({ q, k, dim: DIM, qPositions: [m], kPositions: [n], mode }).scores[0];
}

export function simplyPanel(ctx) {
  const { pe, t } = ctx;
  const [q, k] = randomVectors(pe, { seed: 2, count: 2, dim: DIM });
  const cases = [
    ['uc1', [[0, 1500], [3000, 4500], [9000, 10500]]],
    ['uc2', [[40, 340], [1200, 1500], [5000, 5300]]],
    ['uc3', [[0, 120], [960, 1080], [1900, 2020]]],
  ];
  const rows = [];
  for (const [key, pairs] of cases) {
    for (const [m, n] of pairs) {
      rows.push([t(`simply.${key}`), `(${m}, ${n})`, String(n - m),
        fixed(scoreAt(pe, q, k, m, n, 'rotary'), 4), fixed(scoreAt(pe, q, k, m, n, 'additive'), 4)]);
    }
  }
  // Misconception 1: the rotated query depends on its absolute position, the score does not.
  const r0 = rotateVector(pe, { v: q, position: 0, layout: 'half' });
  const r5 = rotateVector(pe, { v: q, position: 500, layout: 'half' });
  // Misconception 2: PE·PE is a function of n − m (relative information is there).
  const pp = pe.peDotByDistance({ dim: DIM, position: 0, kFirst: 4, kCount: 1 })[0];
  const pp100 = pe.peDotByDistance({ dim: DIM, position: 100, kFirst: 4, kCount: 1 })[0];
  // Misconception 3: a query and key that live on the slowest pair keep their score far away.
  const slow = new Float32Array(DIM);
  slow[DIM / 2 - 1] = 1;  // half layout: the last pair is (x[d/2 − 1], x[d − 1])
  const far = [0, 100, 1000, 4000].map((delta) => pe.relativeKernel({ q: slow, k: slow, delta, layout: 'half' }).score);
  const mis = [
    [t('simply.m1'), t('simply.m1Test', { a: fixed(r0[0], 4), b: fixed(r5[0], 4),
      s0: fixed(scoreAt(pe, q, k, 0, 7, 'rotary'), 4), s1: fixed(scoreAt(pe, q, k, 500, 507, 'rotary'), 4) })],
    [t('simply.m2'), t('simply.m2Test', { a: fixed(pp, 4), b: fixed(pp100, 4),
      s0: fixed(scoreAt(pe, q, k, 0, 4, 'additive'), 4), s1: fixed(scoreAt(pe, q, k, 100, 104, 'additive'), 4) })],
    [t('simply.m3'), t('simply.m3Test', { v: far.map((v) => fixed(v, 4)).join(' / ') })],
  ];
  // A rotation keeps the length: q·q and (R(mθ)q)·(R(mθ)q), both package dot products.
  const qq = pe.scores({ q, k: q, dim: DIM, mode: 'none' }).scores[0];
  const rr = pe.scores({ q: r5, k: r5, dim: DIM, mode: 'none' }).scores[0];
  return panel(t('simply.title'),
    h('p', {}, rich(t('simply.text'))),
    h('p', { class: 'result', 'data-testid': 'simply-norm' }, t('simply.norm', { qq: fixed(qq, 5), rr: fixed(rr, 5) })),
    h('p', {}, rich(t('simply.where'))),
    table({ caption: t('simply.casesCaption', { d: DIM }),
      columns: [t('simply.colCase'), '(m, n)', 'n − m', 'RoPE', t('common.additive')], rows, testid: 'simply-cases', reflow: true }),
    table({ caption: t('simply.misCaption'), columns: [t('simply.colMis'), t('simply.colTest')],
      rows: mis, numeric: false, className: 'prose', testid: 'simply-misconceptions', reflow: true }),
    h('h4', {}, t('simply.usageTitle')),
    h('ul', {}, [1, 2, 3, 4, 5].map((i) => h('li', {}, rich(t(`simply.usage${i}`))))),
    h('h4', {}, t('simply.termsTitle')),
    h('ul', {}, [1, 2, 3, 4, 5].map((i) => h('li', {}, rich(t(`simply.term${i}`))))));
}
