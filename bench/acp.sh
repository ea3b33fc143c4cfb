#!/usr/bin/env bash
# Compares `tandem acp` with two other ACP agents an editor could start, in
# one run on one machine: time from spawn to the initialize reply (median of
# RUNS), resident memory of the agent's process tree after session/new, and
# what each of SESSIONS further sessions adds. Ratios are to tandem.
#
# The other agents come from npm into a cache directory outside the
# repository (installed once): @zed-industries/codex-acp (run as its native
# binary, the fastest peer), @agentclientprotocol/claude-agent-acp and
# @google/gemini-cli --acp.
# Every agent gets a fresh HOME and a dummy API key, so session/new succeeds
# without a network; no prompt is sent, so no model is ever asked.
#
# usage: bench/acp.sh            (RUNS=15 SESSIONS=10 BENCH_NODE_CACHE=DIR to change)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

runs=${RUNS:-15}
sessions=${SESSIONS:-10}
cache=${BENCH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tandem-bench}
claude_pkg=@agentclientprotocol/claude-agent-acp@0.101.0
gemini_pkg=@google/gemini-cli@0.61.0
codex_pkg=@zed-industries/codex-acp@0.16.0
# npm installs the native binary as an optional dependency for this platform;
# running it directly leaves out the Node launcher in front of it.
codex=$cache/node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp

if [ ! -x "$cache/node_modules/.bin/claude-agent-acp" ] || [ ! -x "$cache/node_modules/.bin/gemini" ] || [ ! -x "$codex" ]; then
  echo "acp.sh: installing $codex_pkg, $claude_pkg and $gemini_pkg into $cache" >&2
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || echo '{"private":true}' > "$cache/package.json"
  (cd "$cache" && npm install --no-audit --no-fund --loglevel=error "$codex_pkg" "$claude_pkg" "$gemini_pkg" >&2)
fi

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
# tandem built by README's build line (static and stripped on Linux).
build=$(sed -n 's/^\(go build.*\) -o tandem \.\/cmd\/tandem.*/\1/p' README.md | head -1)
eval "${build:-go build} -o '$bin/tandem' ./cmd/tandem"
go build -o "$bin/acpprobe" ./bench/acpprobe

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); node $(node --version); $("$bin/tandem" version)"
"$bin/acpprobe" -runs "$runs" -sessions "$sessions" \
  "tandem=env ANTHROPIC_API_KEY=dummy $bin/tandem acp" \
  "codex-acp=env OPENAI_API_KEY=dummy $codex" \
  "claude-agent-acp=env IS_SANDBOX=1 ANTHROPIC_API_KEY=dummy $cache/node_modules/.bin/claude-agent-acp" \
  "gemini-cli=env GEMINI_API_KEY=dummy $cache/node_modules/.bin/gemini --acp"
