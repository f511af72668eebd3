#!/usr/bin/env bash
# npm's `prepare` script. npm runs it after `npm install` in a checkout and when it installs
# posenc as a git dependency (it clones the repository, runs `npm install` there, then
# `prepare`, then packs the folder). A git dependency must get a working package, so there it
# builds the package like `npm pack` does (scripts/build-wasm.sh: the toolchain is installed
# or named by scripts/bootstrap.sh; any failure stops the install with its message). In a
# developer's checkout it builds nothing: `npm test`, `npm start` and `npm run build` do.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm marks the install it runs inside a git dependency's clone with _PACOTE_NO_PREPARE_, and
# runs the final `prepare` from the installing project (INIT_CWD), not from this folder.
if [[ -n ${_PACOTE_NO_PREPARE_:-} || ${INIT_CWD:-$PWD} != "$PWD" ]]; then
  echo "prepare: building the package (posenc installed from git or a folder)"
  if ! bash scripts/build-wasm.sh; then
    echo "prepare: posenc could not be built from source (see above); install a packed" \
         "release (npm install posenc-<version>.tgz) or install what is missing and retry" >&2
    exit 1
  fi
fi
