#!/usr/bin/env bash
# tandem as an editor meets it (bench/editorbench): the real `tandem acp`
# over stdio against the fake model in the bench's process, beside a
# minimal Go floor and the fake alone, in one run; every goal of issue 30
# printed as a ratio with met / NOT MET. BASELINE=BIN measures another
# build (say main's) in the same rounds, for a before and after;
# PROFILE=DIR writes this build's CPU profiles there (go tool pprof -top)
# and execution traces beside them (its waits: go tool trace -pprof=sync
# or -pprof=syscall X.trace > w.pprof, then go tool pprof -top -focus=turnRun).
# The long session's turns are timed less the fake's own time on each
# request (it reads and decodes the whole history), and its memory is judged on the
# live heap tandem reports on SIGUSR1 under TANDEM_HEAPSTAT (the resident
# size, printed beside it, adds the collector's headroom); with
# TANDEM_MEMPROFILE=P as well, tandem writes P-N.pprof heap profiles there
# (every allocation sampled: for looking, not timing). The tool loop's
# wall times include the fake's own time on each request, printed beside
# the goal a step per program: tandem's requests carry a system prompt and
# tool schemas the floor's lack, so the fake spends longer on them.
# usage: bench/editor.sh [editorbench flags]   (defaults: 20,000 chunks, 30 steps, 500 turns, 3 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -tags netgo,osusergo -ldflags '-s -w -linkmode external -extldflags -static' -o "$tmp/tandem" ./cmd/tandem
go build -o "$tmp/editorbench" ./bench/editorbench
args=(-tandem "this=$tmp/tandem")
if [ -n "${BASELINE:-}" ]; then args+=(-tandem "baseline=$BASELINE"); fi
if [ -n "${PROFILE:-}" ]; then mkdir -p "$PROFILE"; args+=(-profile "$PROFILE"); fi
"$tmp/editorbench" "${args[@]}" "$@"
