#!/bin/sh
# deps.sh - installs what chunkfill needs from Debian's packages (run as root).
# Skips apt when every package is already installed.
set -e
PKGS="build-essential cmake pkg-config libcjson-dev libmd-dev libpng-dev libzip-dev zlib1g-dev python3-numpy python3-pytest ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libcriterion-dev oclgrind openjdk-17-jdk-headless g++ libnoise-dev chromium nodejs openmpi-bin libopenmpi-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "deps.sh: installing$missing"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
fi
