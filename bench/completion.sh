#!/usr/bin/env bash
# tandem's inline completions as an editor meets them (bench/completionbench):
# the real `tandem lsp` over stdio against a fake FIM server in the bench's
# process; every goal of issue 33 printed with met / NOT MET (latency p50
# and p99 on a 5,000-line file with a warm index, typing at 15 keys/s, memory
# across 50 open files).
# usage: bench/completion.sh [completionbench flags]
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -tags netgo,osusergo -ldflags '-s -w -linkmode external -extldflags -static' -o "$tmp/tandem" ./cmd/tandem
go build -o "$tmp/completionbench" ./bench/completionbench
"$tmp/completionbench" -tandem "$tmp/tandem" "$@"
