#!/usr/bin/env bash
# Builds the demo page (web/) into web/dist/ with Vite: a static folder any host can serve.
# Bundles the package binaries of wasm/dist/, so it first brings them up to date
# (scripts/build-wasm.sh is incremental: about a second when nothing changed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh >/dev/null
node node_modules/vite/bin/vite.js build --config web/vite.config.js --logLevel warn "$@"
echo "build-web: web/dist/ ready ($(du -sh web/dist | cut -f1))"
