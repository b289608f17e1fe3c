# oracle-env.sh - sourced by the make-*.sh scripts of this folder (after they set HERE): finds the repository, the
# oracle and the vanilla pack, and stops with one line when one is missing.
#   oracle_env NAME ORACLE_DEFAULT ORACLE_FILE VERSION
# sets REPO, ORACLE (env ORACLE, else ORACLE_DEFAULT), SHARED (env SHARED, else ../shared beside the repository),
# PACK ($SHARED/vanilla/VERSION) and JOBS_ARGS (--jobs N when JOBS is set).
oracle_env() {
	REPO="$(cd "$HERE/../.." && pwd)"
	ORACLE="${ORACLE:-$2}"
	SHARED="${SHARED:-$REPO/../shared}"
	PACK="$SHARED/vanilla/$4"
	command -v node >/dev/null || { echo "$1: node not found" >&2; exit 2; }
	[ -f "$ORACLE/$3" ] || { echo "$1: no $ORACLE/$3 (set ORACLE)" >&2; exit 2; }
	[ -d "$PACK/data" ] || { echo "$1: no $PACK (set SHARED)" >&2; exit 2; }
	JOBS_ARGS=()
	if [ -n "${JOBS:-}" ]; then JOBS_ARGS+=(--jobs "$JOBS"); fi
}
