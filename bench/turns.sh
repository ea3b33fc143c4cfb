#!/usr/bin/env bash
# Flat per-turn cost, for each wire format (Anthropic, OpenAI-compatible),
# in one run:
#  - time: tandem's own time for a turn whose session already holds 500
#    turns, against one holding 10 (agent.BenchmarkLongSession: the turn
#    minus a bare POST of the same request body to the fake model).
#    Goal: turn 500 <= 1.2x turn 10.
#  - memory: what the live heap keeps per turn from turn 10 to turn 500 of
#    one real session, against what the history grows per turn
#    (agent.BenchmarkSessionMemory; why the live heap and not the RSS is
#    in its comment). Goal: no more than the history's own bytes.
# usage: bench/turns.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/agent.test" ./agent

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of 20 turns each"
for _ in $(seq "$rounds"); do
  (cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkLongSession$' -test.benchtime 20x) |
    awk -v d="$tmp" '/provider=.*turn=/{split($1, a, /[=\/-]/); print $5 >> (d "/" a[3] "." a[5])}'
done
median() { sort -n "$1" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
for p in anthropic openai; do
  awk -v p="$p" -v a="$(median "$tmp/$p.10")" -v b="$(median "$tmp/$p.500")" 'BEGIN{
    printf "%-9s own time per turn: turn 10 %.2f ms, turn 500 %.2f ms (medians); turn 500 / turn 10: %.2fx (goal <= 1.2x) %s\n",
      p, a/1e6, b/1e6, b/a, (b/a<=1.2?"MET":"NOT MET")
  }'
done

echo "memory: one session of 500 turns per format; load $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$tmp" && ./agent.test -test.run '^$' -test.bench '^BenchmarkSessionMemory$' -test.benchtime 1x) |
  awk '/provider=/{split($1, a, /[=-]/); for (i=3; i<NF; i+=2) v[$(i+1)]=$i
    printf "%-9s live heap kept %.0f B/turn (of which the history as llm.Messages %.0f), history %.0f B/turn: %.2fx (goal <= 1x) %s\n",
      a[2], v["heap-B/turn"], v["msgs-B/turn"], v["hist-B/turn"], v["heap/hist"], (v["heap/hist"]<=1?"MET":"NOT MET")}'
