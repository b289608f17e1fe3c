#!/usr/bin/env bash
# Regenerates tests/golden/legacy-*.txt (the 1.18-1.21 dialect) from the legacy oracle.
#   ORACLE  folder with deepslate-oracle-legacy.mjs and node_modules/deepslate@0.26.2 (default /work/oracle-legacy)
#   SHARED  folder with vanilla/1.21.11 (default: ../shared relative to the repository root)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ORACLE="${ORACLE:-/work/oracle-legacy}"
SHARED="${SHARED:-$REPO/../shared}"
command -v node >/dev/null || { echo "make-legacy.sh: node not found" >&2; exit 2; }
[ -f "$ORACLE/deepslate-oracle-legacy.mjs" ] || { echo "make-legacy.sh: no $ORACLE/deepslate-oracle-legacy.mjs (set ORACLE)" >&2; exit 2; }
[ -d "$SHARED/vanilla/1.21.11/data" ] || { echo "make-legacy.sh: no $SHARED/vanilla/1.21.11 (set SHARED)" >&2; exit 2; }
exec node "$HERE/make-legacy.mjs" --oracle "$ORACLE" --pack "$SHARED/vanilla/1.21.11" --repo "$REPO" --out "$HERE" "$@"
