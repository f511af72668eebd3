// A classic worker (no modules): posenc's classic script defines the global `posenc`;
// checks.classic.js is checks.js without its `export`.
importScripts('./node_modules/posenc/wasm/dist/posenc.classic.js', './checks.classic.js');
checks(posenc.createPosenc).then((r) => postMessage(r), (e) => postMessage({ error: String(e?.stack ?? e) }));
