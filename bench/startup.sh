#!/usr/bin/env bash
# Process start-up of tandem beside the Go floors measured in the same run.
# Floors, each printed with what it is:
#   hello      a Go hello world, pure Go (internal linker, no C runtime);
#   hello-acp  a pure-Go program answering ACP's first exchange (initialize)
#              with encoding/json: the floor the issue names;
#   https      a Go hello world linking net/http and crypto/tls, as every
#              HTTPS client must, built with README's line exactly as tandem
#              is (static, with the C runtime that cgo brings): what any
#              binary built that way pays before its first line of code.
#   hello-acp-static  hello-acp built the same way: the first answer's
#              floor for such a binary.
# `tandem version` is timed from spawn to exit, `tandem acp` and `tandem lsp`
# from spawn to their initialize reply. With STARTUP_DYNAMIC=1 the plain
# dynamic `go build` of tandem is timed beside it; STARTUP_BASELINE=BIN
# times BIN (another tandem build, say main's) beside it too, for a before
# and after in one run.
# usage: bench/startup.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/hello" "$tmp/https" "$tmp/hello-acp" "$tmp/home"
printf 'module hello\ngo 1.26\n' > "$tmp/hello/go.mod"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' > "$tmp/hello/main.go"
printf 'module https\ngo 1.26\n' > "$tmp/https/go.mod"
cat > "$tmp/https/main.go" <<'GO'
package main

import (
	"crypto/tls"
	"fmt"
	"net/http"
)

var _, _ = http.Get, tls.Client

func main() { fmt.Println("hello") }
GO
printf 'module helloacp\ngo 1.26\n' > "$tmp/hello-acp/go.mod"
cat > "$tmp/hello-acp/main.go" <<'GO'
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

// Answers one initialize request the way an agent does, then waits for
// the editor to go away.
func main() {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		os.Exit(1)
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params map[string]any  `json:"params"`
	}
	if json.Unmarshal(line, &req) != nil || req.Method != "initialize" {
		os.Exit(1)
	}
	reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{
		"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}}})
	os.Stdout.Write(append(reply, '\n'))
	for {
		if _, err := in.ReadBytes('\n'); err != nil {
			return
		}
	}
}
GO
# README's build line, word for word (see README: static and stripped).
build=$(sed -n 's/^\(go build.*\) -o tandem \.\/cmd\/tandem.*/\1/p' README.md | head -1)
[ -n "$build" ] || { echo "startup.sh: no build line in README.md" >&2; exit 1; }
for p in hello hello-acp; do (cd "$tmp/$p" && go build -o "$p" .); done
(cd "$tmp/https" && eval "$build -o https ." 2>"$tmp/build.log") || { cat "$tmp/build.log" >&2; exit 1; }
# hello-acp again, built as tandem is: the first answer's floor for a binary
# that links the C runtime statically (as tree-sitter's cgo makes tandem).
mkdir -p "$tmp/hello-acp-static" && cp "$tmp/hello-acp/main.go" "$tmp/hello-acp/go.mod" "$tmp/hello-acp-static/"
(cd "$tmp/hello-acp-static" && eval "$build -o hello-acp-static ." 2>"$tmp/build.log") || { cat "$tmp/build.log" >&2; exit 1; }
go build -o "$tmp/startup" ./bench/startup
eval "$build -o '$tmp/tandem' ./cmd/tandem" 2>"$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }
cmds=("$tmp/hello/hello" "$tmp/https/https" "$tmp/tandem version"
  "acp:$tmp/hello-acp/hello-acp" "acp:$tmp/hello-acp-static/hello-acp-static"
  "acp:$tmp/tandem acp" "lsp:$tmp/tandem lsp")
if [ "${STARTUP_DYNAMIC:-}" = 1 ]; then
  go build -o "$tmp/tandem-dynamic" ./cmd/tandem
  cmds+=("$tmp/tandem-dynamic version" "acp:$tmp/tandem-dynamic acp")
fi
if [ -n "${STARTUP_BASELINE:-}" ]; then
  cp "$STARTUP_BASELINE" "$tmp/tandem-baseline"
  cmds+=("acp:$tmp/tandem-baseline acp" "lsp:$tmp/tandem-baseline lsp")
fi

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); median of $runs runs, interleaved"
echo "tandem, https and hello-acp-static: $build"
echo "hello, hello-acp: go build (pure Go)"
# A fresh home and a dummy key: acp starts as for a new user, offline.
TANDEM_HOME=$tmp/home ANTHROPIC_API_KEY=dummy "$tmp/startup" -n "$runs" "${cmds[@]}" | tee "$tmp/out"
ms() { awk -v k="$1" 'index($0, k) == 1 { print $(NF-2) }' "$tmp/out" | head -1; }
verdict() { # name tandem-ms floor-ms
  awk -v n="$1" -v t="$2" -v f="$3" 'BEGIN { r = t / f; printf "%s: %.2fx the floor (goal <= 1.5x): %s\n", n, r, r <= 1.5 ? "met" : "NOT met" }'
}
verdict "tandem version vs hello (pure Go)" "$(ms "tandem version")" "$(ms "hello ")"
verdict "tandem version vs https (built as tandem is)" "$(ms "tandem version")" "$(ms "https")"
verdict "tandem acp → initialize vs hello-acp (pure Go)" "$(ms "tandem acp")" "$(ms "hello-acp →")"
verdict "tandem acp → initialize vs hello-acp-static (built as tandem is)" "$(ms "tandem acp")" "$(ms "hello-acp-static")"
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN{printf "%.1f MB", b/1e6}'; }
echo "binary: $(mb "$tmp/tandem")   (goal <= 30 MB)"
