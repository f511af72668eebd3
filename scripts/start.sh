#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the WebAssembly package (incremental) and
# the demo page, and serves it on localhost, printing the URL.
# Env: PORT (default 8080; 0 picks a free port).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

echo "start: building the package and the page (web/ → web/dist/)"
bash scripts/build-web.sh

port=${PORT:-8080}
echo "start: serving web/dist — open the URL below (Ctrl+C stops)"
exec node scripts/serve.mjs web/dist --port "$port"
