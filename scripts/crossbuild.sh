#!/usr/bin/env bash
# Proves tandem builds for every release platform with cgo (tree-sitter)
# on: for each target, `go vet ./...` and `go build ./cmd/tandem` with the
# C cross compiler scripts/toolchain.sh installs. The platform packages'
# test binaries are built (once) and run by internal/release's
# TestWindowsPackagesUnderWine and TestLinuxArm64PackagesUnderQemu.
# Fails on the first target that does not vet or build. test.sh runs it.
#
#   scripts/crossbuild.sh [GOOS/GOARCH ...]    default: every release target
#
# Binaries go to ${TANDEM_CROSS_OUT:-.cache/cross} (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${TANDEM_CROSS_OUT:-$PWD/.cache/cross}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux/arm64 windows/amd64 darwin/arm64 darwin/amd64)

for t in "${targets[@]}"; do
  goos=${t%/*} goarch=${t#*/}
  cc=$(scripts/toolchain.sh cc "$goos" "$goarch")
  export GOOS=$goos GOARCH=$goarch CGO_ENABLED=1 CC=$cc
  ext=; [ "$goos" = windows ] && ext=.exe
  echo "crossbuild: $t (CC=$(basename "$cc"))" >&2
  go vet -trimpath ./...
  # Without DWARF (-w) on macOS: with it, Go's linker would combine it
  # with dsymutil and strip, which only Apple's toolchain has for Mach-O.
  ldflags=; [ "$goos" = darwin ] && ldflags=-w
  go build -trimpath -ldflags="$ldflags" -o "$out/$goos-$goarch/tandem$ext" ./cmd/tandem
  unset GOOS GOARCH CGO_ENABLED CC
done
echo "crossbuild: ${targets[*]}: vet and build pass" >&2
