#!/usr/bin/env bash
# Regenerates the golden chunk files of this folder (chunks-vanilla.txt, chunks-packs.txt) from the deepslate oracle.
#   ORACLE  folder with deepslate-oracle.mjs and node_modules/deepslate@0.27.2 (default /work/oracle)
#   SHARED  folder with vanilla/26.3 (default: ../shared relative to the repository root)
#   JOBS    parallel oracle runs (default: number of CPUs)
# Usage: tests/golden/make-chunks.sh [--only vanilla,packs]      (runnable from any directory)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ORACLE="${ORACLE:-/work/oracle}"
SHARED="${SHARED:-$REPO/../shared}"
command -v node >/dev/null || { echo "make-chunks.sh: node not found" >&2; exit 2; }
[ -f "$ORACLE/deepslate-oracle.mjs" ] || { echo "make-chunks.sh: no $ORACLE/deepslate-oracle.mjs (set ORACLE)" >&2; exit 2; }
[ -d "$SHARED/vanilla/26.3/data" ] || { echo "make-chunks.sh: no $SHARED/vanilla/26.3 (set SHARED)" >&2; exit 2; }
extra=()
[ -n "${JOBS:-}" ] && extra+=(--jobs "$JOBS")
exec node "$HERE/make-chunks.mjs" --oracle "$ORACLE" --shared "$SHARED" --repo "$REPO" --out "$HERE" ${extra[@]+"${extra[@]}"} "$@"
