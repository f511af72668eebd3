// The numbers every bundled app checks, the same in a page, a worker and Node: the default
// binary (SIMD in Chromium and Node) and the scalar one, each giving the sinusoidal row p=1
// (0.8415, 0.5403) and the RoPE hand check score(m=2, n=5) = −sin 0.3 for one pair θ = 0.1;
// and the trainer entry's binary of the same flavour, two steps of a tiny model.
export async function checks(createPosenc, createTrainer) {
  const result = {};
  for (const [name, options] of [['default', undefined], ['scalar', { simd: false }]]) {
    const pe = await createPosenc(options);
    const rope = pe.rope({ headDim: 8, layout: 'interleaved' });
    const q = new Float32Array(8);
    const k = new Float32Array(8);
    q[2] = 1; // the pair θ = 0.1
    k[3] = 1;
    rope.apply(q, { tokens: 1, positions: [2] });
    rope.apply(k, { tokens: 1, positions: [5] });
    rope.dispose();
    const pt = await createTrainer(options);
    const t = pt.train({ task: 'recall', encoding: 'rope-half', symbols: 4, distance: 2, length: 8, evalLengths: [8],
      steps: 2, batch: 2, evalTokens: 16 });
    const loss = Array.from(t.step(2).loss);
    t.dispose();
    result[name] = {
      simd: pe.simd,
      pe1: Array.from(pe.sinusoidal({ dim: 8, positions: [1] }).subarray(0, 2)),
      score: q.reduce((s, v, i) => s + v * k[i], 0),
      trainer: { simd: pt.simd, loss },
    };
  }
  return result;
}
