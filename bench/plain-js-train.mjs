// The benchmark reference for the trainer's step: the same model as posenc::transformer
// (token embedding; per layer pre-norm causal multi-head attention with RoPE, half layout,
// and a ReLU MLP; final norm; tied output; cross-entropy; Adam) written in plain JavaScript
// the way a user would: typed arrays, loops, no SIMD. Its initialisation is its own (not
// posenc's draws): only its time is compared, and tests/js/plain-js-train.test.mjs checks its
// gradient against central differences so the comparison is with a correct step.

/** A model of `vocab`, `dim`, `heads`, `layers`, `mlp` for sequences up to `length`; Arr: Float32Array or Float64Array. */
export function plainTrainer({ vocab, dim, heads, layers, mlp, length, base = 10000, seed = 1, Arr = Float32Array }) {
  const d = dim, f = mlp, hd = dim / heads, half = hd / 2;
  let s = seed >>> 0 || 1;
  const rand = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32; };
  const blocks = [];
  const block = (n, init) => { const a = new Arr(n); for (let i = 0; i < n; i++) a[i] = init(); blocks.push(a); return a; };
  const uniform = (r) => () => (2 * rand() - 1) * r;
  const ones = () => 1, zeros = () => 0;
  const E = block(vocab * d, uniform(0.1));
  const L = [];
  for (let l = 0; l < layers; l++) {
    L.push({
      g1: block(d, ones), b1: block(d, zeros), qkv: block(d * 3 * d, uniform(1 / Math.sqrt(d))),
      out: block(d * d, uniform(1 / Math.sqrt(d))), g2: block(d, ones), b2: block(d, zeros),
      up: block(d * f, uniform(1 / Math.sqrt(d))), bu: block(f, zeros),
      down: block(f * d, uniform(1 / Math.sqrt(f))), bd: block(d, zeros),
    });
  }
  const gf = block(d, ones), bf = block(d, zeros);
  const params = blocks;
  const grads = blocks.map((b) => new Arr(b.length));
  const m1 = blocks.map((b) => new Float32Array(b.length));
  const m2 = blocks.map((b) => new Float32Array(b.length));
  const cos = new Float64Array(length * half), sin = new Float64Array(length * half);
  for (let p = 0; p < length; p++) {
    for (let i = 0; i < half; i++) {
      const a = p * base ** (-2 * i / hd);
      cos[p * half + i] = Math.cos(a); sin[p * half + i] = Math.sin(a);
    }
  }
  let t = 0;

  // C[n][m] (+)= A[n][k]·B[k][m]
  function mm(A, B, C, n, k, m, add = false) {
    for (let i = 0; i < n; i++) {
      const ci = i * m;
      if (!add) for (let j = 0; j < m; j++) C[ci + j] = 0;
      for (let p = 0; p < k; p++) {
        const a = A[i * k + p], bp = p * m;
        for (let j = 0; j < m; j++) C[ci + j] += a * B[bp + j];
      }
    }
  }
  // C[k][m] += A[n][k]ᵀ·G[n][m] (weight gradient)
  function mmTN(A, G, C, n, k, m) {
    for (let i = 0; i < n; i++) {
      for (let p = 0; p < k; p++) {
        const a = A[i * k + p], cp = p * m, gi = i * m;
        for (let j = 0; j < m; j++) C[cp + j] += a * G[gi + j];
      }
    }
  }
  // C[n][k] = G[n][m]·B[k][m]ᵀ (input gradient)
  function mmNT(G, B, C, n, k, m) {
    for (let i = 0; i < n; i++) {
      for (let p = 0; p < k; p++) {
        let acc = 0;
        for (let j = 0; j < m; j++) acc += G[i * m + j] * B[p * m + j];
        C[i * k + p] = acc;
      }
    }
  }
  function norm(x, g, b, xhat, rstd, y, T) {
    for (let i = 0; i < T; i++) {
      let mu = 0, v = 0;
      for (let j = 0; j < d; j++) mu += x[i * d + j];
      mu /= d;
      for (let j = 0; j < d; j++) v += (x[i * d + j] - mu) ** 2;
      const r = 1 / Math.sqrt(v / d + 1e-5);
      rstd[i] = r;
      for (let j = 0; j < d; j++) {
        const h = (x[i * d + j] - mu) * r;
        xhat[i * d + j] = h;
        y[i * d + j] = g[j] * h + b[j];
      }
    }
  }
  // dx += LN backward of dy; accumulates dg, db.
  function normBack(dy, g, xhat, rstd, dx, dg, db, T) {
    for (let i = 0; i < T; i++) {
      let s1 = 0, s2 = 0;
      for (let j = 0; j < d; j++) {
        const dh = dy[i * d + j] * g[j];
        s1 += dh; s2 += dh * xhat[i * d + j];
        dg[j] += dy[i * d + j] * xhat[i * d + j];
        db[j] += dy[i * d + j];
      }
      for (let j = 0; j < d; j++) {
        const dh = dy[i * d + j] * g[j];
        dx[i * d + j] += rstd[i] * (dh - s1 / d - xhat[i * d + j] * s2 / d);
      }
    }
  }
  // Rotates the `heads` heads of rows [T][stride] at column offset `off` by ±angle.
  function rope(x, T, stride, off, sign) {
    for (let p = 0; p < T; p++) {
      for (let h = 0; h < heads; h++) {
        const o = p * stride + off + h * hd;
        for (let i = 0; i < half; i++) {
          const c = cos[p * half + i], sn = sign * sin[p * half + i];
          const a = x[o + i], b = x[o + i + half];
          x[o + i] = a * c - b * sn;
          x[o + i + half] = a * sn + b * c;
        }
      }
    }
  }

  // Causal softmax attention per head on the rotated q, k of qkv [T][3d]: P [heads][T][T], o [T][d].
  function attentionForward(qkv, P, o, T) {
    const sc = 1 / Math.sqrt(hd);
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < T; i++) {
        let mx = -Infinity;
        const row = h * T * T + i * T;
        for (let j = 0; j <= i; j++) {
          let a = 0;
          for (let e = 0; e < hd; e++) a += qkv[i * 3 * d + h * hd + e] * qkv[j * 3 * d + d + h * hd + e];
          P[row + j] = a * sc;
          if (a * sc > mx) mx = a * sc;
        }
        let z = 0;
        for (let j = 0; j <= i; j++) { const e = Math.exp(P[row + j] - mx); P[row + j] = e; z += e; }
        for (let j = 0; j <= i; j++) P[row + j] /= z;
        for (let e = 0; e < hd; e++) {
          let a = 0;
          for (let j = 0; j <= i; j++) a += P[row + j] * qkv[j * 3 * d + 2 * d + h * hd + e];
          o[i * d + h * hd + e] = a;
        }
      }
    }
  }
  // dO → dqkv (q, k before the rotation is undone; v) through the softmax rows P.
  function attentionBackward(qkv, P, dO, dqkv, T) {
    const sc = 1 / Math.sqrt(hd);
    const dP = new Float64Array(T);
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < T; i++) {
        const row = h * T * T + i * T;
        let dot = 0;
        for (let j = 0; j <= i; j++) {
          let a = 0;
          for (let e = 0; e < hd; e++) {
            a += dO[i * d + h * hd + e] * qkv[j * 3 * d + 2 * d + h * hd + e];
            dqkv[j * 3 * d + 2 * d + h * hd + e] += P[row + j] * dO[i * d + h * hd + e];
          }
          dP[j] = a;
          dot += a * P[row + j];
        }
        for (let j = 0; j <= i; j++) {
          const ds = P[row + j] * (dP[j] - dot) * sc;
          for (let e = 0; e < hd; e++) {
            dqkv[i * 3 * d + h * hd + e] += ds * qkv[j * 3 * d + d + h * hd + e];
            dqkv[j * 3 * d + d + h * hd + e] += ds * qkv[i * 3 * d + h * hd + e];
          }
        }
      }
    }
  }
  // logits = hf·Eᵀ and softmax cross-entropy on the scored targets[at …]: adds dlogits' share
  // to dhf and dE; returns the loss sum.
  function outputBackward(hf, dhf, dE, targets, at, T, scale) {
    let lossSum = 0;
    const logits = new Float64Array(vocab);
    for (let p = 0; p < T; p++) {
      const target = targets[at + p];
      if (target < 0) continue;
      let mx = -Infinity;
      for (let v = 0; v < vocab; v++) {
        let a = 0;
        for (let j = 0; j < d; j++) a += hf[p * d + j] * E[v * d + j];
        logits[v] = a;
        if (a > mx) mx = a;
      }
      let z = 0;
      for (let v = 0; v < vocab; v++) z += Math.exp(logits[v] - mx);
      lossSum += Math.log(z) + mx - logits[target];
      for (let v = 0; v < vocab; v++) {
        const g = (Math.exp(logits[v] - mx) / z - (v === target ? 1 : 0)) * scale;
        for (let j = 0; j < d; j++) { dhf[p * d + j] += g * E[v * d + j]; dE[v * d + j] += g * hf[p * d + j]; }
      }
    }
    return lossSum;
  }

  /** Mean cross-entropy of tokens/targets [seqs][T] (target −1: not scored); fills the gradients. */
  function gradient(tokens, targets, seqs, T) {
    for (const g of grads) g.fill(0);
    let lossSum = 0, scored = 0;
    for (let i = 0; i < targets.length; i++) if (targets[i] >= 0) scored++;
    const scale = scored ? 1 / scored : 0;
    const gi = (a) => grads[params.indexOf(a)];
    for (let sq = 0; sq < seqs; sq++) {
      const x = new Arr(T * d);
      for (let p = 0; p < T; p++) for (let j = 0; j < d; j++) x[p * d + j] = E[tokens[sq * T + p] * d + j];
      const saved = [];
      for (const w of L) {
        const c = { xin: x.slice(), h1: new Arr(T * d), xh1: new Arr(T * d), r1: new Arr(T), qkv: new Arr(T * 3 * d),
          P: new Arr(heads * T * T), o: new Arr(T * d), x2: null, h2: new Arr(T * d), xh2: new Arr(T * d), r2: new Arr(T),
          u: new Arr(T * f) };
        norm(x, w.g1, w.b1, c.xh1, c.r1, c.h1, T);
        mm(c.h1, w.qkv, c.qkv, T, d, 3 * d);
        rope(c.qkv, T, 3 * d, 0, 1);
        rope(c.qkv, T, 3 * d, d, 1);
        attentionForward(c.qkv, c.P, c.o, T);
        mm(c.o, w.out, x, T, d, d, true);
        c.x2 = x.slice();
        norm(x, w.g2, w.b2, c.xh2, c.r2, c.h2, T);
        mm(c.h2, w.up, c.u, T, d, f);
        const r = new Arr(T * f);
        for (let i = 0; i < T; i++) for (let j = 0; j < f; j++) { c.u[i * f + j] += w.bu[j]; r[i * f + j] = Math.max(0, c.u[i * f + j]); }
        c.r = r;
        mm(r, w.down, x, T, f, d, true);
        for (let i = 0; i < T; i++) for (let j = 0; j < d; j++) x[i * d + j] += w.bd[j];
        saved.push(c);
      }
      const hf = new Arr(T * d), xhf = new Arr(T * d), rf = new Arr(T);
      norm(x, gf, bf, xhf, rf, hf, T);
      // logits = hf·Eᵀ, softmax cross-entropy; dlogits → dhf and dE.
      const dhf = new Arr(T * d);
      const dE = gi(E);
      lossSum += outputBackward(hf, dhf, dE, targets, sq * T, T, scale);
      const dx = new Arr(T * d);
      normBack(dhf, gf, xhf, rf, dx, gi(gf), gi(bf), T);
      for (let l = layers - 1; l >= 0; l--) {
        const w = L[l], c = saved[l];
        // MLP: x = x2 + relu(h2·up + bu)·down + bd
        const dr = new Arr(T * f);
        mmTN(c.r, dx, gi(w.down), T, f, d);
        const dbd = gi(w.bd);
        for (let i = 0; i < T; i++) for (let j = 0; j < d; j++) dbd[j] += dx[i * d + j];
        mmNT(dx, w.down, dr, T, f, d);
        const dbu = gi(w.bu);
        for (let i = 0; i < T * f; i++) if (c.u[i] <= 0) dr[i] = 0;
        for (let i = 0; i < T; i++) for (let j = 0; j < f; j++) dbu[j] += dr[i * f + j];
        mmTN(c.h2, dr, gi(w.up), T, d, f);
        const dh2 = new Arr(T * d);
        mmNT(dr, w.up, dh2, T, d, f);
        normBack(dh2, w.g2, c.xh2, c.r2, dx, gi(w.g2), gi(w.b2), T);
        // attention: x = xin + o·out
        mmTN(c.o, dx, gi(w.out), T, d, d);
        const dO = new Arr(T * d);
        mmNT(dx, w.out, dO, T, d, d);
        const dqkv = new Arr(T * 3 * d);
        attentionBackward(c.qkv, c.P, dO, dqkv, T);
        rope(dqkv, T, 3 * d, 0, -1);
        rope(dqkv, T, 3 * d, d, -1);
        mmTN(c.h1, dqkv, gi(w.qkv), T, d, 3 * d);
        const dh1 = new Arr(T * d);
        mmNT(dqkv, w.qkv, dh1, T, d, 3 * d);
        normBack(dh1, w.g1, c.xh1, c.r1, dx, gi(w.g1), gi(w.b1), T);
      }
      for (let p = 0; p < T; p++) for (let j = 0; j < d; j++) dE[tokens[sq * T + p] * d + j] += dx[p * d + j];
    }
    return scored ? lossSum / scored : 0;
  }

  /** Adam (β 0.9 / 0.99, ε 1e−8) with the global gradient norm clipped to 1, at `rate`. */
  function adam(rate) {
    t++;
    let sq = 0;
    for (const g of grads) for (let i = 0; i < g.length; i++) sq += g[i] * g[i];
    const clip = Math.sqrt(sq) > 1 ? 1 / Math.sqrt(sq) : 1;
    const c1 = 1 - 0.9 ** t, c2 = 1 - 0.99 ** t;
    for (let b = 0; b < params.length; b++) {
      const p = params[b], g = grads[b], m = m1[b], v = m2[b];
      for (let i = 0; i < p.length; i++) {
        const gc = g[i] * clip;
        m[i] = 0.9 * m[i] + 0.1 * gc;
        v[i] = 0.99 * v[i] + 0.01 * gc * gc;
        p[i] -= rate * (m[i] / c1) / (Math.sqrt(v[i] / c2) + 1e-8);
      }
    }
  }

  return {
    params, grads, gradient,
    /** One training step on the batch: its loss before the update. */
    step(tokens, targets, seqs, T, rate = 0.01) { const l = gradient(tokens, targets, seqs, T); adam(rate); return l; },
  };
}
