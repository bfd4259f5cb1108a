#!/usr/bin/env bash
# Regenerates the committed PTX of every workload (workloads/<name>/<name>.cu
# -> <name>.ptx) and of every benchmark case (tools/bench-cases/<name>.cu ->
# <name>.ptx) with nvcc. Only needed after editing a kernel; building,
# running and testing simtlab never need nvcc.
#   tools/regen_ptx.sh [--check] [name ...]
#   --check: compile to a temporary file and report differences instead of writing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
NVCC_FLAGS=(-arch=sm_75 -ptx -O3 -std=c++17)
check=0
if [[ ${1:-} == --check ]]; then check=1; shift; fi
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "regen_ptx: nvcc not found at $NVCC (set NVCC=...)" >&2
  exit 2
fi
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  for d in "$here"/workloads/*/; do
    n=$(basename "$d")
    [[ -f "$d/$n.cu" ]] && names+=("$n")
  done
  for f in "$here"/tools/bench-cases/*.cu; do
    [[ -f "$f" ]] && names+=("$(basename "$f" .cu)")
  done
fi
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in "${names[@]}"; do
  src="$here/workloads/$n/$n.cu"
  out="$here/workloads/$n/$n.ptx"
  if [[ ! -f "$src" && -f "$here/tools/bench-cases/$n.cu" ]]; then
    src="$here/tools/bench-cases/$n.cu"
    out="$here/tools/bench-cases/$n.ptx"
  fi
  [[ -f "$src" ]] || { echo "regen_ptx: no $src" >&2; exit 2; }
  "$NVCC" "${NVCC_FLAGS[@]}" -o "$tmp/$n.ptx" "$src"
  if [[ $check -eq 1 ]]; then
    if ! cmp -s "$tmp/$n.ptx" "$out"; then
      echo "regen_ptx: $out differs from what nvcc generates now" >&2
      status=1
    fi
  else
    cp "$tmp/$n.ptx" "$out"
    echo "wrote ${out#"$here"/}"
  fi
done
exit $status
