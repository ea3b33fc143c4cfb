#!/usr/bin/env bash
# What plugins add to one tool call: the before and after tool-call seams
# with the plugin runtime and no plugin, and with three plugin processes
# hooking both (each answers at once, so this is the host's round trip).
# Goal: under 2 ms with three; no measurable change with none.
# usage: bench/plugins.sh [CALLS]
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-3000}
out=$(go test -run '^$' -bench 'ToolCallHooks|TurnSeamsNoPlugin' -benchtime "${calls}x" -count 3 ./agent/plugin)
best() { echo "$out" | awk -v n="$1" '$1 ~ n {print $3}' | sort -n | head -1; }
none=$(best 'ToolCallHooks/none')
three=$(best 'ToolCallHooks/three')
turn=$(best 'TurnSeamsNoPlugin')
echo "per tool call, best of 3 runs of $calls calls:"
awk -v a="$none" -v b="$three" -v c="$turn" 'BEGIN {
	printf "  runtime, no plugin:        %10.0f ns\n", a
	printf "  (per turn, no plugin:      %10.0f ns)\n", c
	printf "  three plugins, both hooks: %10.3f ms (goal < 2 ms)\n", b / 1e6
	printf "  per hook round trip:       %10.0f us\n", b / 6 / 1e3
}'
