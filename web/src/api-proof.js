// The package calls behind the proof, the bridge to code and the family comparison
// (sections 8–14). Like api.js, nothing here does the maths under study: every number is a
// package result; the page only picks entries, re-orders them and formats them.
import { rotatePair, pairScores, rotateVector } from './api.js';

const E1 = [1, 0];
const E2 = [0, 1];

/** R(position·θ) as [[a, b], [c, d]]: its columns are the package's rotations of e₁ and e₂. */
export function rotationMatrix(pe, { position, theta }) {
  const c1 = rotatePair(pe, { v: E1, position, theta });
  const c2 = rotatePair(pe, { v: E2, position, theta });
  return [[c1[0], c2[0]], [c1[1], c2[1]]];
}

/**
 * R(mθ)ᵀR(nθ): entry (i, j) = ⟨R(mθ)eᵢ, R(nθ)eⱼ⟩, the package's RoPE score of q = eᵢ at m and
 * k = eⱼ at n. Its transpose-then-multiply is the proof's left side, computed without forming
 * either factor on the page.
 */
export function transposeProduct(pe, { m, n, theta }) {
  const at = (q, k) => pairScores(pe, { q, k, pairs: [[m, n]], theta })[0];
  return [[at(E1, E1), at(E1, E2)], [at(E2, E1), at(E2, E2)]];
}

/** R(mθ)R(nθ): the package rotates the columns of R(nθ) by mθ. */
export function productMatrix(pe, { m, n, theta }) {
  const inner = rotationMatrix(pe, { position: n, theta });
  const c1 = rotatePair(pe, { v: [inner[0][0], inner[1][0]], position: m, theta });
  const c2 = rotatePair(pe, { v: [inner[0][1], inner[1][1]], position: m, theta });
  return [[c1[0], c2[0]], [c1[1], c2[1]]];
}

/** max over entries of |A − B| for two 2×2 package results (display of agreement). */
export function matrixGap(a, b) {
  return Math.max(...a.flatMap((row, i) => row.map((v, j) => Math.abs(v - b[i][j]))));
}

/**
 * Products a·b of float32 numbers as pe.scores computes them (mode 'none', dim 1): the outer
 * product outer(as, bs) row-major — torch.outer(positions, inv_freq) in float32, or one
 * product of the hand check.
 */
export function outer(pe, as, bs) {
  return pe.scores({ q: Float32Array.from(as), k: Float32Array.from(bs), dim: 1, mode: 'none' }).scores;
}

/** y = W·x for W [rows][dim] row-major (the package's dot products, pe.scores mode 'none'). */
export function matVec(pe, W, x, dim) {
  return pe.scores({ q: W, k: Float32Array.from(x), dim, mode: 'none' }).scores;
}

/** Row i of x [T][dim] times each row of y: all dot products, pe.scores mode 'none'. */
export function dots(pe, x, y, dim) {
  return pe.scores({ q: x, k: y, dim, mode: 'none' }).scores;
}

/** cos(p·θᵢ), sin(p·θᵢ) for each pair, from a rotator in the given layout (pe.rope … row). */
export function cosSinRow(pe, { dim, position, base = 10000 }) {
  const rope = pe.rope({ headDim: dim, base, layout: 'interleaved' });
  try {
    const { cos, sin } = rope.row(position);
    return { cos, sin, invFreq: rope.invFreq };
  } finally {
    rope.dispose();
  }
}

/** x rotated at `position` by the package, in each layout. */
export function rotateBoth(pe, { x, position }) {
  return {
    interleaved: rotateVector(pe, { v: x, position, layout: 'interleaved' }),
    half: rotateVector(pe, { v: x, position, layout: 'half' }),
  };
}

/** The RoPE score of q at m and k at n for each pair: float32 (pe.scores) and double (pe.relativeKernel). */
export function ladderCheck(pe, { q, k, pairs, layout = 'interleaved', base = 10000 }) {
  const dim = q.length;
  const qs = Float32Array.from(q);
  const ks = Float32Array.from(k);
  return pairs.map(([m, n]) => ({
    m, n,
    float32: pe.scores({ q: qs, k: ks, dim, qPositions: [m], kPositions: [n], mode: 'rotary', layout, base }).scores[0],
    double: pe.relativeKernel({ q: qs, k: ks, delta: n - m, base, layout }).score,
  }));
}
