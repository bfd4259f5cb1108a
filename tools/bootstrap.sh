#!/usr/bin/env bash
# Installs the Debian packages simtlab needs, if any are missing; with --fuzz,
# the extra ones the fuzz targets need instead (make fuzz).
# Safe to run repeatedly: it does nothing when everything is present.
set -euo pipefail
packages=(
  g++ make cmake pkg-config
  libsystemc-dev        # SystemC 2.3.4 with TLM-2.0
  libcli11-dev          # command line
  libboost-test-dev     # Boost.Test
  nlohmann-json3-dev    # JSON (manifests, stats)
  libtomlplusplus-dev   # TOML machine configurations
  gtkwave               # vcd2fst: tests check that waveforms load in GTKWave
  python3               # tools/sweep and tools/bench (3.11: tomllib); tests run tools/sweep
  python3-matplotlib    # tools/sweep plot
  libzstd-dev           # fatbins of CUDA programs: nvcc 13 compresses them with zstd
  liblz4-dev            # ... and nvcc 12 with LZ4
)
# `make fuzz` only (docs/hardening.md): libFuzzer comes with clang's runtime
# libraries; llvm gives llvm-symbolizer for readable stack traces.
fuzz_packages=(
  clang                 # clang++ 14 on Debian 12
  libclang-rt-dev       # libclang_rt.fuzzer and clang's sanitizer runtimes
  llvm                  # llvm-symbolizer
)
if [[ ${1:-} == --fuzz ]]; then
  packages=("${fuzz_packages[@]}")
elif [[ $# -gt 0 ]]; then
  echo "usage: tools/bootstrap.sh [--fuzz]" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
echo "bootstrap: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
