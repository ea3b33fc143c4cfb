#!/usr/bin/env bash
# Process start to exit of `tandem version`, beside two floors measured in
# the same run: a Go hello world, and a Go hello world that links net/http
# and crypto/tls as every HTTPS client must. usage: bench/startup.sh [RUNS]
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

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); median of $runs runs"
"$tmp/startup" -n "$runs" "$tmp/tandem version" "$tmp/hello/hello" "$tmp/https/https"
