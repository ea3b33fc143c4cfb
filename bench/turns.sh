#!/usr/bin/env bash
# Flat per-turn cost: tandem's own time for a turn whose session already
# holds 500 turns, against one holding 10 (agent.BenchmarkLongSession: the
# turn minus a bare POST of the same request body to the same fake model),
# in one run. Goal: turn 500 <= 1.2x turn 10. usage: bench/turns.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/agent.test" ./agent

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of 20 turns each"
for _ in $(seq "$rounds"); do
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkLongSession$' -test.benchtime 20x) |
    awk '/turn=10-/{print $5 >> "'"$tmp"'/t10"} /turn=500-/{print $5 >> "'"$tmp"'/t500"}'
done
median() { sort -n "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
awk -v a="$(median "$tmp/t10")" -v b="$(median "$tmp/t500")" 'BEGIN{
  printf "tandem own time per turn: turn 10 %.2f ms, turn 500 %.2f ms (medians)\n", a/1e6, b/1e6
  printf "turn 500 / turn 10: %.2fx   (goal <= 1.2x) %s\n", b/a, (b/a<=1.2?"MET":"NOT MET")
}'
