#!/usr/bin/env bash
# Installs the Debian packages microtorch needs, only those that are missing (needs root for apt-get).
set -euo pipefail
packages=(g++ cmake ninja-build ccache libeigen3-dev libgtest-dev libbenchmark-dev libopenblas-dev libdnnl-dev
  zlib1g-dev dataset-fashion-mnist)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
