#!/usr/bin/env bash
# Regenerates tests/golden/blocks.txt (blocks of the noise stage: final density + the 26.3 aquifer) from the
# deepslate oracle's blocks mode.
#   ORACLE  folder with deepslate-oracle.mjs and node_modules/deepslate@0.27.2 (default /work/oracle)
#   SHARED  folder with vanilla/26.3 (default: ../shared relative to the repository root)
#   JOBS    parallel oracle runs (default: number of CPUs)
# Usage: tests/golden/make-blocks.sh      (runnable from any directory; about 6 minutes on 2 cores)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ORACLE="${ORACLE:-/work/oracle}"
SHARED="${SHARED:-$REPO/../shared}"
command -v node >/dev/null || { echo "make-blocks.sh: node not found" >&2; exit 2; }
[ -f "$ORACLE/deepslate-oracle.mjs" ] || { echo "make-blocks.sh: no $ORACLE/deepslate-oracle.mjs (set ORACLE)" >&2; exit 2; }
[ -d "$SHARED/vanilla/26.3/data" ] || { echo "make-blocks.sh: no $SHARED/vanilla/26.3 (set SHARED)" >&2; exit 2; }
extra=()
[ -n "${JOBS:-}" ] && extra+=(--jobs "$JOBS")
exec node "$HERE/make-blocks.mjs" --oracle "$ORACLE" --shared "$SHARED" --repo "$REPO" --out "$HERE/blocks.txt" ${extra[@]+"${extra[@]}"}
