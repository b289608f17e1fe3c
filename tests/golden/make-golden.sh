#!/usr/bin/env bash
# Regenerates the golden files in this folder from the deepslate oracle.
#   ORACLE  folder with deepslate-oracle.mjs and node_modules/deepslate@0.27.2 (default /work/oracle)
#   SHARED  folder with vanilla/26.3 (default: ../shared relative to the repository root)
#   JOBS    parallel oracle runs (default: number of CPUs)
# Usage: tests/golden/make-golden.sh [--only nodes,legacy,vanilla,noise]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/oracle-env.sh"
oracle_env make-golden.sh /work/oracle deepslate-oracle.mjs 26.3
exec node "$HERE/make-golden.mjs" --oracle "$ORACLE" --shared "$SHARED" --repo "$REPO" --out "$HERE" ${JOBS_ARGS[@]+"${JOBS_ARGS[@]}"} "$@"
