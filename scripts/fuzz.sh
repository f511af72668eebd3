#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang 14, ASan + UBSan, in build/asan: the
# sanitizer tree of scripts/asan-tree.sh, which npm test builds whole) and runs every target
# for a bounded time; fails if any target crashes, leaks, trips a sanitizer or an invariant,
# or times out.
#
#   scripts/fuzz.sh                  each target 10 s, one per core at a time (the `npm test`
#                                    budget: about 30 s on two cores)
#   scripts/fuzz.sh --long SECONDS   each target SECONDS (the documented longer run)
#   scripts/fuzz.sh --only fuzz_rotary [--long 600]   one target
#
# Each target starts from its seed corpus tests/fuzz/corpus/<target>/ (which also holds
# regression inputs of past findings) and writes what it discovers to
# build/fuzz/corpus/<target>/, never to the source tree. A crash leaves its input in
# build/fuzz/artifacts/<target>/; rerun it with build/asan/tests/fuzz/<target> <file>.
# Flags: targets -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all; the library
# -fsanitize=fuzzer-no-link,address,undefined (set in tests/fuzz/CMakeLists.txt). CXX_SANITIZE
# names another clang (default clang++-14); FUZZ_JOBS how many targets run at once (default:
# the number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=10
only=""
while (($#)); do
  case "$1" in
    --long) seconds="${2:?--long needs a number of seconds}"; shift 2 ;;
    --only) only="${2:?--only needs a target name}"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "fuzz.sh: SECONDS must be a positive integer" >&2; exit 2; }

targets=()
for source in tests/fuzz/fuzz_*.cpp; do
  name=$(basename "$source" .cpp)
  [[ -z "$only" || "$only" == "$name" ]] && targets+=("$name")
done
((${#targets[@]})) || { echo "fuzz.sh: no target named '$only'" >&2; exit 2; }
bash scripts/asan-tree.sh "${targets[@]}"
tree=build/asan
out=build/fuzz

# Sanitizers stop at the first report; leaks count as findings.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One target: its run's exit status goes to $out/logs/<name>.status.
run_target() {
  local name=$1 status=0
  local seeds=tests/fuzz/corpus/$name work=$out/corpus/$name artifacts=$out/artifacts/$name log=$out/logs/$name.log
  mkdir -p "$seeds" "$work" "$artifacts" "$(dirname "$log")"
  rm -f "$out/logs/$name.status"
  "$tree/tests/fuzz/$name" "$work" "$seeds" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  echo "$status" >"$out/logs/$name.status"
}

# Each target is one process on one core: as many run at once as there are cores (FUZZ_JOBS).
slots=${FUZZ_JOBS:-$(nproc)}
for name in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= slots)); do wait -n || true; done
  printf '==> %s (%s s)\n' "$name" "$seconds"
  run_target "$name" &
done
wait

failed=()
summary=()
for name in "${targets[@]}"; do
  log=$out/logs/$name.log
  status=$(cat "$out/logs/$name.status")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
  [[ -n "$done_line" ]] && echo "$name: $done_line"
  if ((status != 0)); then
    grep -E 'ERROR|runtime error|invariant violated|Test unit written|SUMMARY|exception' "$log" | head -n 20 || true
    echo "$name: FAILED (exit $status, ${runs:-?} executions) — full log: $log"
    failed+=("$name")
    summary+=("$(printf '%-20s %12s executions  FAILED' "$name" "${runs:-?}")")
  else
    summary+=("$(printf '%-20s %12s executions  ok' "$name" "${runs:-?}")")
  fi
done

printf '\n==> fuzz summary (%s s per target)\n' "$seconds"
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  exit 1
fi
