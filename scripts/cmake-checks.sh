#!/usr/bin/env bash
# Native packaging checks (a step of `npm test`), each in its own build tree under build/:
#   1. every xsimd of ../shared/xsimd/<version>/include (12.1.1, 13.2.0, 14.3.0 next to the
#      clone; POSENC_XSIMD_VERSIONS=<folder> points elsewhere): configure, build the library and
#      the Catch2 suite, run it; and an xsimd outside the supported range stops the configure
#      with its message. Skipped, saying why, only when the folder is absent.
#   2. a shared build: soname, and only posenc's API exported (no xsimd, no posenc::detail,
#      no standard-library instantiations); the README example links against it and runs.
#   3. add_subdirectory and FetchContent from a parent project change none of its cache
#      entries (CMAKE_BUILD_TYPE stays empty), and the README example builds there.
#   4. the scalar build (POSENC_SCALAR: the library from its scalar references, as the WASM
#      scalar binary): the angle, rotary, cos/sin and sinusoidal tests, 2^24 … 2^53 included.
# Env: JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-2}
started=$SECONDS
step() { printf '\n--> [%d s] %s\n' $((SECONDS - started)) "$*"; }
fail() { echo "cmake-checks: $*" >&2; exit 1; }

# The README's C++ example (the ```cpp block between <!-- cpp-example --> markers).
readme_example() {
  awk '/<!-- cpp-example -->/{on=1; next} /<!-- \/cpp-example -->/{on=0} on' README.md | sed '/^```/d' >"$1"
  [[ -s $1 ]] || fail "README.md has no cpp-example block"
}

# --- 1. xsimd versions ---------------------------------------------------------------------
versions=${POSENC_XSIMD_VERSIONS:-$root/../shared/xsimd}
suites=()  # version:pid of each tree's suite, run in the background and collected before step 4
# config <dir> <include dir> <version>: the package config a distribution would install.
config() {
  mkdir -p "$1"
  printf 'add_library(xsimd INTERFACE IMPORTED)\nset_target_properties(xsimd PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "%s")\nset(xsimd_VERSION %s)\n' \
    "$2" "$3" >"$1/xsimdConfig.cmake"
}
if [[ ! -d $versions ]]; then
  step "xsimd versions: SKIPPED — $versions not found (set POSENC_XSIMD_VERSIONS or put the headers at ../shared/xsimd)"
else
  for include in "$versions"/*/include; do
    v=$(basename "$(dirname "$include")")
    step "xsimd $v: configure, build, Catch2 suite"
    dir=build/xsimd-$v
    config "$dir/xsimd-config" "$(cd "$include" && pwd)" "$v"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPOSENC_INSTALL=OFF "-Dxsimd_DIR=$root/$dir/xsimd-config" \
      >"$dir.configure.log" || { cat "$dir.configure.log"; fail "configure with xsimd $v failed"; }
    grep -q "posenc: xsimd $v" "$dir.configure.log" || fail "the build did not use xsimd $v"
    cmake --build "$dir" -j "$jobs" --target posenc_tests >"$dir.build.log" 2>&1 ||
      { tail -n 40 "$dir.build.log"; fail "build with xsimd $v failed (log: $dir.build.log)"; }
    # The suite is one process: it runs while the next tree (or step 2, 3) compiles.
    "$dir/tests/core/posenc_tests" --use-colour no >"$dir.test.log" 2>&1 &
    suites+=("$v:$!")
  done
fi
for v in 7.0.0 15.0.0; do
  step "xsimd $v (outside the supported range): the configure stops with a clear message"
  dir=build/xsimd-fake-$v
  mkdir -p "$dir/include/xsimd/config"
  IFS=. read -r major minor patch <<<"$v"
  printf '#define XSIMD_VERSION_MAJOR %s\n#define XSIMD_VERSION_MINOR %s\n#define XSIMD_VERSION_PATCH %s\n' \
    "$major" "$minor" "$patch" >"$dir/include/xsimd/config/xsimd_config.hpp"
  config "$dir/xsimd-config" "$root/$dir/include" "$v"
  if cmake -S . -B "$dir/build" -DPOSENC_BUILD_TESTS=OFF "-Dxsimd_DIR=$root/$dir/xsimd-config" >"$dir.log" 2>&1; then
    fail "xsimd $v was accepted"
  fi
  message=$(tr -s ' \n' ' ' <"$dir.log")  # CMake wraps its messages
  [[ $message =~ posenc:\ xsimd\ $v\ [^\)]*\)\ is\ outside\ the\ supported\ range\ 8\.1\ to\ \<15 ]] ||
    { cat "$dir.log"; fail "no clear message for xsimd $v"; }
  echo "${BASH_REMATCH[0]}"
done

# --- 2. shared library ---------------------------------------------------------------------
step "shared build: soname and exported symbols"
dir=build/shared
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DPOSENC_BUILD_TESTS=OFF \
  -DPOSENC_INSTALL=OFF >/dev/null
cmake --build "$dir" -j "$jobs" --target posenc >/dev/null
soname=$(readelf -d "$dir/libposenc.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[[ $soname =~ ^libposenc\.so\.[0-9]+(\.[0-9]+)?$ ]] || fail "soname '$soname'"
symbols=$(nm -DC --defined-only "$dir/libposenc.so" | cut -c 20-)
others=$(grep -vE '^(posenc::|typeinfo for posenc::|typeinfo name for posenc::|vtable for posenc::|POSENC_0$)' <<<"$symbols" || true)
[[ -z $others ]] || fail "exports more than posenc's API:"$'\n'"$others"
! grep -qE 'xsimd|posenc::detail' <<<"$symbols" || fail "exports xsimd or posenc::detail symbols"
echo "soname $soname, $(wc -l <<<"$symbols") exported symbols, all posenc's API"
readme_example "$dir/readme_example.cpp"
c++ -std=c++20 -O2 -Icore/include "$dir/readme_example.cpp" -L"$dir" -lposenc -Wl,-rpath,"$root/$dir" -o "$dir/readme_example"
"$dir/readme_example"

# --- 3. parent project ---------------------------------------------------------------------
# cache <build dir>: its entries as KEY:TYPE=VALUE, internal and path-only ones left out.
cache() { grep -E '^[A-Za-z_][A-Za-z0-9_-]*:[A-Z]+=' "$1/CMakeCache.txt" | grep -vE ':(INTERNAL|STATIC)=' | sort; }
for how in subdirectory fetchcontent; do
  step "parent project, posenc by $how: the parent's cache is unchanged"
  dir=build/parent-$how
  rm -rf "$dir" && mkdir -p "$dir"
  readme_example "$dir/readme_example.cpp"
  cp tests/core/consumer/parent/CMakeLists.txt "$dir/"
  cmake -S "$dir" -B "$dir/build" -DHOW=none "-DPOSENC_SOURCE=$root" >/dev/null
  cache "$dir/build" >"$dir/before.txt"
  cmake -S "$dir" -B "$dir/build" -DHOW=$how >/dev/null
  cache "$dir/build" | grep -v '^HOW:' >"$dir/after.txt"
  # Every entry the parent had keeps its value; new ones are posenc's own (and xsimd_DIR).
  changed=$(comm -23 <(grep -v '^HOW:' "$dir/before.txt") "$dir/after.txt")
  [[ -z $changed ]] || fail "posenc by $how changed the parent's cache:"$'\n'"$changed"$'\n'"now:"$'\n'"$(comm -13 "$dir/before.txt" "$dir/after.txt")"
  added=$(comm -13 "$dir/before.txt" "$dir/after.txt" | grep -vE '^(POSENC_|xsimd_DIR:|FETCHCONTENT_)' || true)
  [[ -z $added ]] || fail "posenc by $how added cache entries that are not its own:"$'\n'"$added"
  grep -q '^CMAKE_BUILD_TYPE:STRING=$' "$dir/after.txt" || fail "CMAKE_BUILD_TYPE is no longer empty"
  cmake --build "$dir/build" -j "$jobs" >/dev/null
  "$dir/build/readme_example"
done
if ((${#suites[@]})); then
  step "xsimd versions: the Catch2 suites' results"
  for suite in "${suites[@]}"; do
    v=${suite%%:*}
    wait "${suite#*:}" || { tail -n 60 "build/xsimd-$v.test.log"; fail "the Catch2 suite with xsimd $v failed (log: build/xsimd-$v.test.log)"; }
    echo "xsimd $v: $(grep -E "^(All tests passed|test cases:)" "build/xsimd-$v.test.log" | tail -n 1)"
  done
fi

# --- 4. scalar references --------------------------------------------------------------------
step "scalar build (POSENC_SCALAR): angles, rotary, cos/sin and sinusoidal tests"
dir=build/native-scalar
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPOSENC_SCALAR=ON -DPOSENC_INSTALL=OFF >"$dir.configure.log" ||
  { cat "$dir.configure.log"; fail "configure of the scalar build failed"; }
cmake --build "$dir" -j "$jobs" --target posenc_tests >"$dir.build.log" 2>&1 ||
  { tail -n 40 "$dir.build.log"; fail "scalar build failed (log: $dir.build.log)"; }
"$dir/tests/core/posenc_tests" --use-colour no "[angles],[rotary],[sinusoidal],*rope_cos_sin*" | tail -n 2

step "cmake checks passed"
