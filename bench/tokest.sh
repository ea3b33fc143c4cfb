#!/usr/bin/env bash
# The token estimate's error against real BPE tokenizers (o200k_base,
# cl100k_base from the npm package gpt-tokenizer) on the requests of a
# scripted session over this repository. usage: bench/tokest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
modules=${TANDEM_BENCH_NODE_MODULES:-.cache/bench-node/node_modules}
if [ ! -f "$modules/gpt-tokenizer/package.json" ]; then
	npm install --silent --no-audit --no-fund --prefix "$(dirname "$modules")" gpt-tokenizer@3.4.0 >&2
fi
NODE_PATH=$(cd "$modules" && pwd) go run ./bench/tokest
