#!/usr/bin/env bash
# Regenerates tests/golden/blocks.txt (blocks of the noise stage: final density + the 26.3 aquifer) from the
# deepslate oracle's blocks mode.
#   ORACLE  folder with deepslate-oracle.mjs and node_modules/deepslate@0.27.2 (default /work/oracle)
#   SHARED  folder with vanilla/26.3 (default: ../shared relative to the repository root)
#   JOBS    parallel oracle runs (default: number of CPUs)
# Usage: tests/golden/make-blocks.sh      (runnable from any directory; about 6 minutes on 2 cores)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/oracle-env.sh"
oracle_env make-blocks.sh /work/oracle deepslate-oracle.mjs 26.3
exec node "$HERE/make-blocks.mjs" --oracle "$ORACLE" --shared "$SHARED" --repo "$REPO" --out "$HERE/blocks.txt" ${JOBS_ARGS[@]+"${JOBS_ARGS[@]}"}
