#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the WebAssembly package when wasm/dist is
# missing or older than its sources, builds the demo page, and serves it on localhost.
# Env: PORT (default 8080; 0 picks a free port).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

# Stale when any core or binding source is newer than the oldest binary.
stale=0
for bin in wasm/dist/posenc-simd.wasm wasm/dist/posenc-scalar.wasm; do
  if [[ ! -f $bin ]] || [[ -n $(find core wasm/src wasm/CMakeLists.txt CMakeLists.txt -newer "$bin" -type f -print -quit 2>/dev/null) ]]; then
    stale=1
  fi
done
if ((stale)); then
  echo "start: building the WebAssembly package (scripts/build-wasm.sh)"
  bash scripts/build-wasm.sh
fi

echo "start: building the page (web/ → web/dist/)"
bash scripts/build-web.sh

port=${PORT:-8080}
echo "start: serving web/dist — open the URL below (Ctrl+C stops)"
exec node scripts/serve.mjs web/dist --port "$port"
