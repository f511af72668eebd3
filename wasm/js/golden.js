// The golden-vectors document of a Hugging Face config.json, as `posenc vectors` writes it and
// the demo page downloads it: the decoder's layer map and, per distinct rotary, θ in float64,
// the attention factor and HF-shaped cos/sin at the positions asked for. Everything is computed
// by the package (pe.modelFromConfig, rope.cosSin); this file only fixes the key order.

// HF's cos/sin rows of one rotary: [positions][rotaryDim] as plain arrays of doubles. A
// multi-axis rotary (M-RoPE, 2-D vision) gets each position on every axis.
function cosSinRows(rope, positions) {
  const all = [];
  for (let a = 0; a < rope.axes; a++) all.push(...positions);
  const { cos, sin } = rope.cosSin({ positions: all });
  const rows = (t) => positions.map((_, i) => Array.from(t.subarray(i * rope.rotaryDim, (i + 1) * rope.rotaryDim)));
  return [rows(cos), rows(sin)];
}

function encodingJson(rope, scaling, positions) {
  const [cos, sin] = cosSinRows(rope, positions);
  return {
    headDim: rope.headDim,
    rotaryDim: rope.rotaryDim,
    layout: rope.layout,
    direction: rope.direction,
    base: rope.base,
    scaling,
    mrope: rope.mrope === null ? null : { section: [...rope.mrope.section], interleaved: rope.mrope.interleaved },
    vision2d: rope.vision2d,
    axes: rope.axesName,
    attentionFactor: rope.attentionFactor,
    invFreq: Array.from(rope.invFreq),
    cos,
    sin,
  };
}

function sliceJson(s) {
  return s === null ? null : { head: s.head, offset: s.offset };
}

function layerJson(l) {
  const q = l.queryScale;
  return {
    index: l.index,
    rope: l.rope,
    attention: l.attention,
    window: l.window,
    chunk: l.chunk,
    queryScale: q === null ? null : { floorScale: q.floorScale, attnScale: q.attnScale, offset: q.offset },
    bidirectional: l.bidirectional,
    lookahead: l.lookahead,
    crossAttention: l.crossAttention,
    patchWindow: l.patchWindow === null ? null : { side: l.patchWindow.side, merge: l.patchWindow.merge },
    compressRate: l.compressRate,
    ropeSlice: sliceJson(l.ropeSlice),
    outputInverse: l.outputInverse,
    indexerSlice: sliceJson(l.indexerSlice),
  };
}

/**
 * The golden-vectors document of a parsed config (see index.d.ts: goldenVectors). `pe` is a
 * loaded posenc; positions are validated by rope.cosSin; errors as pe.modelFromConfig.
 */
export function goldenVectors(pe, config, { version, positions, seqLen, tower, family, stack }) {
  const opts = {};
  if (seqLen !== undefined) opts.seqLen = seqLen;
  if (tower !== undefined) opts.tower = tower;
  if (family !== undefined) opts.family = family;
  if (stack !== undefined) opts.stack = stack;
  const model = pe.modelFromConfig(config, opts);
  try {
    const encodings = {};
    for (const key of Object.keys(model.encodings)) {
      encodings[key] = encodingJson(model.encodings[key], model.scaling[key], positions);
    }
    return {
      posenc: version,
      modelType: model.modelType,
      family: model.family,
      positions,
      layers: model.layers.map(layerJson),
      encodings,
    };
  } finally {
    model.dispose();
  }
}
