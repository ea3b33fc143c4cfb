#!/usr/bin/env bash
# Process start to exit of `tandem version`, beside two floors measured in
# the same run: a Go hello world, and a Go hello world that links net/http
# and crypto/tls as every HTTPS client must. Beside the binary README's
# `go build` makes, it times a stripped, statically linked build (when the C
# library's static archive is installed: libc6-dev) and prints both sizes.
# usage: bench/startup.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/hello" "$tmp/https"
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
(cd "$tmp/hello" && go build -o hello .)
(cd "$tmp/https" && go build -o https .)
go build -o "$tmp/tandem" ./cmd/tandem
go build -o "$tmp/startup" ./bench/startup
cmds=("$tmp/hello/hello" "$tmp/https/https" "$tmp/tandem version")
# -s -w drops the symbol table and DWARF; the static link saves the dynamic
# loader's work (libc lookup and relocation) at every start. netgo and
# osusergo keep the resolver and user lookups in Go, so nothing needs glibc's
# run-time loading (NSS).
libc=$(gcc -print-file-name=libc.a 2>/dev/null || true)
if [ -f "$libc" ] && [ "$libc" != libc.a ]; then
  go build -tags netgo,osusergo -ldflags '-s -w -linkmode external -extldflags -static' -o "$tmp/tandem-static" ./cmd/tandem 2>"$tmp/static.log" ||
    { cat "$tmp/static.log" >&2; exit 1; }
  cmds+=("$tmp/tandem-static version")
else
  echo "startup.sh: no static libc (apt-get install libc6-dev); the static build is left out" >&2
fi

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); median of $runs runs; ratios to hello (goal: tandem <= 1.5x)"
"$tmp/startup" -n "$runs" "${cmds[@]}"
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN{printf "%.1f MB", b/1e6}'; }
echo "binary: go build $(mb "$tmp/tandem")$([ -f "$tmp/tandem-static" ] && echo "; static, -s -w $(mb "$tmp/tandem-static")")   (goal <= 30 MB)"
