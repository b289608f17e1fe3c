#!/usr/bin/env bash
# Regenerates the golden files in this folder from the deepslate oracle.
#   ORACLE  folder with deepslate-oracle.mjs and node_modules/deepslate@0.27.2 (default /work/oracle)
#   SHARED  folder with vanilla/26.3 (default: ../shared relative to the repository root)
#   JOBS    parallel oracle runs (default: number of CPUs)
# Usage: tests/golden/make-golden.sh [--only nodes,legacy,vanilla,noise]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ORACLE="${ORACLE:-/work/oracle}"
SHARED="${SHARED:-$REPO/../shared}"
command -v node >/dev/null || { echo "make-golden.sh: node not found" >&2; exit 2; }
[ -f "$ORACLE/deepslate-oracle.mjs" ] || { echo "make-golden.sh: no $ORACLE/deepslate-oracle.mjs (set ORACLE)" >&2; exit 2; }
[ -d "$SHARED/vanilla/26.3/data" ] || { echo "make-golden.sh: no $SHARED/vanilla/26.3 (set SHARED)" >&2; exit 2; }
extra=()
[ -n "${JOBS:-}" ] && extra+=(--jobs "$JOBS")
exec node "$HERE/make-golden.mjs" --oracle "$ORACLE" --shared "$SHARED" --repo "$REPO" --out "$HERE" "${extra[@]}" "$@"
