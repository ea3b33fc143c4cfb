#!/usr/bin/env bash
# Runs every test tandem has. Installs what the tests need first (apt and npm
# packages; idempotent, skipped when already present), then runs the Go tests
# with the race detector and the editor-side tests.
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)

need_apt=()
command -v nvim >/dev/null || need_apt+=(neovim)
# The release test (internal/release) cross-compiles with Debian's cross
# compilers and runs the binaries under qemu-user and Wine.
command -v aarch64-linux-gnu-gcc >/dev/null || need_apt+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v x86_64-w64-mingw32-gcc >/dev/null || need_apt+=(gcc-mingw-w64-x86-64)
command -v qemu-aarch64-static >/dev/null || need_apt+=(qemu-user-static)
[ -x /usr/lib/wine/wine64 ] || need_apt+=(wine64)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "test.sh: installing ${need_apt[*]} (apt)" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Emacs 30 (eglot built in; what agent-shell targets) comes from Debian
# bookworm-backports: the backports source is added beside the normal ones,
# never instead of them, so apt-get update keeps every other list.
emacs_major=$(emacs --version 2>/dev/null | sed -n '1s/^GNU Emacs \([0-9]*\).*/\1/p') || true
if [ "${emacs_major:-0}" -lt 30 ]; then
  backports=/etc/apt/sources.list.d/tandem-bookworm-backports.sources
  if [ ! -f "$backports" ]; then
    printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' \
      'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' > "$backports"
  fi
  echo "test.sh: installing emacs-nox 30 (apt, bookworm-backports)" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -t bookworm-backports emacs-nox >/dev/null
fi

# Node packages the tests drive (third-party ACP clients, MCP servers) live
# in .cache/node, outside the Go tree.
node_dir="$root/.cache/node"
if [ ! -f "$node_dir/.installed" ] || ! cmp -s test/node-packages.txt "$node_dir/.installed"; then
  echo "test.sh: installing node packages into .cache/node" >&2
  mkdir -p "$node_dir"
  [ -f "$node_dir/package.json" ] || echo '{"private":true}' > "$node_dir/package.json"
  (cd "$node_dir" && xargs npm install --no-audit --no-fund --loglevel=error < "$root/test/node-packages.txt")
  cp test/node-packages.txt "$node_dir/.installed"
fi
export TANDEM_NODE_MODULES="$node_dir/node_modules"

# The VS Code end-to-end test's code-server, Node 24, playwright-core and
# Chromium, cached outside the clone (~/.cache/tandem-test) so a second
# run installs nothing.
editors/vscode/e2e/setup.sh >/dev/null
# Tests that need an external program fail, rather than skip, when it is missing.
export TANDEM_TEST_STRICT=1

go vet ./...
# Every release platform vets and builds with cgo, its C cross compiler
# installed (cached in ~/.cache/tandem-toolchain) by scripts/toolchain.sh.
scripts/crossbuild.sh
# The release test (internal/release) cross-builds and packages every
# channel first: past go test's default 10 minutes on a cold cache.
go test -race -count=1 -timeout 45m ./...
