#!/usr/bin/env bash
# Tool-step overhead: one turn of 30 read_file/edit_file calls through the
# agent against a local workspace (agent.BenchmarkToolSteps), beside the
# same exchanges with the fake model through the provider alone
# (BenchmarkToolStepsFloor), interleaved in one run. The difference per
# step is what tandem adds to a tool step (goal < 0.5 ms).
# usage: bench/toolstep.sh [ROUNDS]   (PROFILE=FILE also writes a CPU profile of the agent's runs)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
steps=30
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/agent.test" ./agent

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of 5 turns each"
for r in $(seq "$rounds"); do
  prof=()
  if [ -n "${PROFILE:-}" ] && [ "$r" = 1 ]; then prof=(-test.cpuprofile "$PROFILE"); fi
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkToolSteps$' -test.benchtime 5x "${prof[@]}") | awk '/^BenchmarkToolSteps-/{print $3}' >>"$tmp/agent"
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkToolStepsFloor$' -test.benchtime 5x) | awk '/^BenchmarkToolStepsFloor-/{print $3}' >>"$tmp/floor"
done
median() { sort -n "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
a=$(median "$tmp/agent"); f=$(median "$tmp/floor")
awk -v a="$a" -v f="$f" -v n="$steps" 'BEGIN{
  o=(a-f)/n/1e6
  printf "turn of %d steps: agent %.1f ms, provider alone %.1f ms (medians)\n", n, a/1e6, f/1e6
  printf "tool-step overhead: %.2f ms per step   (goal < 0.5 ms) %s\n", o, (o<0.5?"MET":"NOT MET")
  printf "agent / floor: %.2fx\n", a/f
}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
