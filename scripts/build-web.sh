#!/usr/bin/env bash
# Builds the demo page (web/) into web/dist/ with Vite: a static folder any host can serve.
# Needs the package binaries in wasm/dist/ (scripts/build-wasm.sh); builds them if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f wasm/dist/posenc-simd.wasm || ! -f wasm/dist/posenc-scalar.wasm ]]; then
  bash scripts/build-wasm.sh
fi
node node_modules/vite/bin/vite.js build --config web/vite.config.js --logLevel warn "$@"
echo "build-web: web/dist/ ready ($(du -sh web/dist | cut -f1))"
