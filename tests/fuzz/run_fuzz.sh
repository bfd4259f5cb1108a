#!/usr/bin/env bash
# Runs the libFuzzer targets of a SIMT_FUZZ build for a fixed time each
# (docs/hardening.md). Usage: run_fuzz.sh BUILD_DIR SECONDS [ptx|manifest|config]...
# Seeds come from the repository (workloads' and tests' PTX, configs, manifests);
# the growing corpus stays in BUILD_DIR/fuzz/corpus/<target>, and every finding
# is written to BUILD_DIR/fuzz/findings/<target>/ (crash-*, timeout-*, leak-*, oom-*).
# Exit status: 0 when no target found anything, 1 otherwise.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: run_fuzz.sh BUILD_DIR SECONDS [target]...}" && pwd)
seconds=${2:?usage: run_fuzz.sh BUILD_DIR SECONDS [target]...}
shift 2
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(ptx manifest config)

seed_files() {
  cd "$src" || return
  case $1 in
    ptx) find workloads tests -name '*.ptx' ;;
    manifest) find tests -name '*.json' ;;
    config) ls configs/*.toml tests/fuzz/seeds/config/* ;;
  esac
}

# UBSan findings abort (the build has -fno-sanitize-recover); ASan's and
# LSan's end the run; libFuzzer turns each into a saved reproducer.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}

failed=()
for t in "${targets[@]}"; do
  bin=$build/fuzz_$t
  [[ -x $bin ]] || { echo "run_fuzz: $bin missing (build it with -DSIMT_FUZZ=ON)" >&2; failed+=("$t"); continue; }
  seeds=$build/fuzz/seeds/$t corpus=$build/fuzz/corpus/$t findings=$build/fuzz/findings/$t
  rm -rf "$seeds"
  mkdir -p "$seeds" "$corpus" "$findings"
  while read -r f; do cp "$src/$f" "$seeds/${f//\//_}"; done < <(seed_files "$t")
  dict=()
  [[ -f $src/tests/fuzz/$t.dict ]] && dict=(-dict="$src/tests/fuzz/$t.dict")
  echo "run_fuzz: $t for ${seconds}s ($(ls "$seeds" | wc -l) seeds, $(ls "$corpus" | wc -l) in corpus)"
  # -timeout: one input taking longer is a finding (a hang); -rss_limit_mb: so is
  # a run that needs more memory (libFuzzer writes oom-*). -max_len: longer seeds
  # are cut; small inputs run ~20x faster than whole workload PTX files.
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
       -max_len="${FUZZ_MAX_LEN:-4096}" \
       "${dict[@]}" -artifact_prefix="$findings/" "$corpus" "$seeds" > "$build/fuzz/$t.log" 2>&1; then
    failed+=("$t")
    echo "run_fuzz: $t FOUND A PROBLEM; log $build/fuzz/$t.log, reproducer in $findings/:" >&2
    grep -E 'ERROR|runtime error|escaped exception|Test unit written|SUMMARY' "$build/fuzz/$t.log" | head -20 >&2
  else
    grep -E '^stat::number_of_executed_units|^#[0-9]+[[:space:]]*DONE' "$build/fuzz/$t.log" | tail -2
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "run_fuzz: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "run_fuzz: no findings (${targets[*]}, ${seconds}s each)"
