#!/usr/bin/env bash
# Regenerates tests/golden/legacy-*.txt (the 1.18-1.21 dialect) from the legacy oracle.
#   ORACLE  folder with deepslate-oracle-legacy.mjs and node_modules/deepslate@0.26.2 (default /work/oracle-legacy)
#   SHARED  folder with vanilla/1.21.11 (default: ../shared relative to the repository root)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/oracle-env.sh"
oracle_env make-legacy.sh /work/oracle-legacy deepslate-oracle-legacy.mjs 1.21.11
exec node "$HERE/make-legacy.mjs" --oracle "$ORACLE" --pack "$PACK" --repo "$REPO" --out "$HERE" "$@"
