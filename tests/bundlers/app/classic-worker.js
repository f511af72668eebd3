// A classic worker (no modules): posenc's classic scripts define the globals `posenc` and
// `posencTrain`; checks.classic.js is checks.js without its `export`.
importScripts('./node_modules/posenc/wasm/dist/posenc.classic.js', './node_modules/posenc/wasm/dist/train.classic.js',
  './checks.classic.js');
checks(posenc.createPosenc, posencTrain.createTrainer).then((r) => postMessage(r), (e) => postMessage({ error: String(e?.stack ?? e) }));
