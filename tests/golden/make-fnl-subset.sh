#!/bin/sh
# make-fnl-subset.sh - writes tests/golden/fnl-subset.jsonl: every 37th record of
# the FastNoiseLite oracle files (shared/fastnoiselite, see its README) plus every
# NaN record, so that a clone without ../shared still checks each kind of record.
# usage: sh tests/golden/make-fnl-subset.sh [shared-dir]
set -e
here=$(cd "$(dirname "$0")" && pwd)
shared=${1:-$here/../../../shared}
for f in cellnoise2d cellnoise3d fastgradientwarp; do
  awk 'NR % 37 == 1 || /"bits":"ffc00000"/' "$shared/fastnoiselite/$f.jsonl"
done > "$here/fnl-subset.jsonl"
