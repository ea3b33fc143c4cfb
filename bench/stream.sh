#!/usr/bin/env bash
# Streaming through a whole in-process `tandem acp` against the fake model's
# own rate, measured in the same run (acp.BenchmarkStreaming): goal ≥ 0.8×
# the fake's rate and ≤ 10 µs of tandem CPU per chunk.
# usage: bench/stream.sh [COUNT]   (COUNT runs of 5 prompts × 5,000 chunks)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
go test -run XXX -bench BenchmarkStreaming -benchtime 5x -count "$count" ./acp |
  awk '/^BenchmarkStreaming/ {
         for (i = 1; i <= NF; i++) { if ($(i+1) == "x-fake-rate") r = $i; if ($(i+1) == "µs-cpu/chunk") c = $i }
         printf "rate %.2f× the fake (%s), CPU %.1f µs/chunk (%s)\n", r, (r >= 0.8 ? "goal met" : "goal missed"), c, (c <= 10 ? "goal met" : "goal missed")
       }'
