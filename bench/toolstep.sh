#!/usr/bin/env bash
# Tool-step overhead: one turn of 30 read_file/edit_file calls through the
# agent against a local workspace (agent.BenchmarkToolSteps), beside the
# same exchanges with the fake model through the provider alone
# (BenchmarkToolStepsFloor), interleaved in one run; the fake model runs in
# a child process, so the benchmark's CPU time is tandem's. The difference
# per step, in wall and in CPU time, is what tandem adds to a tool step
# (goal < 0.5 ms). The workspace is a temporary directory: TMPDIR=/dev/shm
# puts it on tmpfs, which tells the file system's own cost of an edit
# (creating and renaming a file) from tandem's. A second line sets the agent
# against BenchmarkToolStepsFloorSameHead, the provider sending the agent's
# own system prompt and tools with every request: the fake model's reading
# of those bytes, and of the agent's own tool results, then counts as the
# exchange's, not as tandem's overhead. Sleeps are the times one of the
# process's threads blocked (voluntary context switches), each paid for
# with a wake-up: a goroutine hand-off that finds the other thread idle
# costs one. A last line does the same for a stored session, as an
# editor's are (BenchmarkToolStepsStored: the session log written too).
# usage: bench/toolstep.sh [ROUNDS]   (PROFILE=FILE also writes a CPU profile of the agent's runs)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
steps=30
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/agent.test" ./agent

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of 5 turns each; workspace on $(df --output=fstype "${TMPDIR:-/tmp}" | tail -1)"
for r in $(seq "$rounds"); do
  prof=()
  if [ -n "${PROFILE:-}" ] && [ "$r" = 1 ]; then prof=(-test.cpuprofile "$PROFILE"); fi
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkToolSteps$' -test.benchtime 5x "${prof[@]}") | awk '/^BenchmarkToolSteps-/{print $3 >> "'"$tmp"'/agent"; print $5 >> "'"$tmp"'/agentcpu"; print $7 >> "'"$tmp"'/agentsleep"}'
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkToolStepsFloor$' -test.benchtime 5x) | awk '/^BenchmarkToolStepsFloor-/{print $3 >> "'"$tmp"'/floor"; print $5 >> "'"$tmp"'/floorcpu"}'
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkToolStepsFloorSameHead$' -test.benchtime 5x) | awk '/^BenchmarkToolStepsFloorSameHead-/{print $3 >> "'"$tmp"'/head"; print $5 >> "'"$tmp"'/headcpu"; print $7 >> "'"$tmp"'/headsleep"}'
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkToolStepsStored$' -test.benchtime 5x) | awk '/^BenchmarkToolStepsStored-/{print $3 >> "'"$tmp"'/stored"; print $5 >> "'"$tmp"'/storedcpu"}'
done
median() { sort -n "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
awk -v a="$(median "$tmp/agent")" -v f="$(median "$tmp/floor")" -v ac="$(median "$tmp/agentcpu")" -v fc="$(median "$tmp/floorcpu")" -v h="$(median "$tmp/head")" -v hc="$(median "$tmp/headcpu")" -v as="$(median "$tmp/agentsleep")" -v hs="$(median "$tmp/headsleep")" -v st="$(median "$tmp/stored")" -v stc="$(median "$tmp/storedcpu")" -v n="$steps" 'BEGIN{
  o=(a-f)/n/1e6; oc=(ac-fc)/n/1e6
  printf "turn of %d steps: agent %.1f ms wall, %.1f ms CPU; provider alone %.1f ms wall, %.1f ms CPU (medians)\n", n, a/1e6, ac/1e6, f/1e6, fc/1e6
  printf "tool-step overhead: %.2f ms wall, %.2f ms CPU per step   (goal < 0.5 ms) wall %s, CPU %s\n", o, oc, (o<0.5?"MET":"NOT MET"), (oc<0.5?"MET":"NOT MET")
  printf "agent / floor: %.2fx wall, %.2fx CPU\n", a/f, ac/fc
  oh=(a-h)/n/1e6; ohc=(ac-hc)/n/1e6
  printf "against the provider sending the same system prompt, tools and tool results (%.1f ms wall, %.1f ms CPU): %.2f ms wall, %.2f ms CPU per step   wall %s, CPU %s\n", h/1e6, hc/1e6, oh, ohc, (oh<0.5?"MET":"NOT MET"), (ohc<0.5?"MET":"NOT MET")
  printf "thread sleeps per step: agent %.1f, provider alone with the same bytes %.1f\n", as, hs
  os=(st-h)/n/1e6; osc=(stc-hc)/n/1e6
  printf "a stored session (every update and message also logged): %.2f ms wall, %.2f ms CPU per step over the same floor\n", os, osc
}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
