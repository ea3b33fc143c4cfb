#!/usr/bin/env bash
# Times compaction of a 150k-token history (agent.BenchmarkCompaction150k):
# /compact with the history inside a 200k window (one summary request) and
# over a 32k window (summarised in pieces), and the automatic compaction
# before a request, which stubbing old tool outputs settles. The fake model
# answers at once over loopback HTTP, so the figures are tandem's own cost;
# a real model adds its generation time per summary request.
# Usage: bench/compact.sh   (BENCH_RUNS=N sets -benchtime Nx, default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-5}
echo "($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
go test -run '^$' -bench 'Compaction150k' -benchtime "${runs}x" ./agent/ |
  awk '/^BenchmarkCompaction150k/ {
    name = $1; sub(/^BenchmarkCompaction150k\//, "", name); sub(/-[0-9]+$/, "", name)
    printf "%-24s %8.1f ms  %s summary requests\n", name, $3 / 1e6, $5
  }'
