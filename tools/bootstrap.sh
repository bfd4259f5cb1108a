#!/usr/bin/env bash
# Installs the Debian packages simtlab needs, if any are missing.
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
)
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
