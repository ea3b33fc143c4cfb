#!/usr/bin/env bash
# Benchmarks `tandem defs` against universal-ctags on one source tree (by
# default the Go toolchain's own source), side by side in one run:
#   - ctags -R
#   - tandem defs, cold (fresh $TANDEM_HOME, so no cache) and warm (same cache)
#   - the parse-only floor (tree-sitter parsing with no extraction; go test -bench)
# and prints wall and CPU time, peak RSS and the ratios the issue sets goals
# for. Usage: bench/defs.sh [TREE]   (BENCH_RUNS=N runs N interleaved rounds and keeps each command's best)
# BENCH_BUILD=1 also times a cold build (private GOCACHE) and a warm one.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
tree=${1:-$(go env GOROOT)/src}
runs=${BENCH_RUNS:-1}

if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "defs.sh: installing universal-ctags (apt)" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq universal-ctags >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build runs go build, showing the compiler's output only if it fails (the
# grammars' C code warns on every cold build).
build() { go build "$@" 2>"$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }; }

if [ "${BENCH_BUILD:-0}" = 1 ]; then
  t0=$(date +%s.%N)
  GOCACHE="$tmp/gocache" build -o "$tmp/tandem-cold" ./cmd/tandem
  t1=$(date +%s.%N)
  build -o "$tmp/tandem" ./cmd/tandem
  t2=$(date +%s.%N)
  # A new version string forces a relink, as any edit would.
  build -ldflags "-X main.version=bench-$t2" -o "$tmp/tandem" ./cmd/tandem
  t3=$(date +%s.%N)
  printf 'go build: cold %.1f s (empty GOCACHE), warm %.1f s (relink); binary %s MB\n' \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$(awk -v a="$t2" -v b="$t3" 'BEGIN{print b-a}')" "$(( $(stat -c %s "$tmp/tandem") / 1000000 ))"
  rm -rf "$tmp/gocache" "$tmp/tandem-cold"
else
  build -o "$tmp/tandem" ./cmd/tandem
fi

. bench/measure.sh

echo "tree: $tree  ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"

# The floor: parse every file with one worker per CPU, extract nothing.
build_test() { go test -c "$@" 2>"$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }; }
build_test -o "$tmp/treesitter.test" ./treesitter

# Rounds interleave the four commands, so a machine whose speed drifts
# (shared cloud VMs do) slows them alike instead of whichever ran last.
for _ in $(seq "$runs"); do
  measure ctags ctags -R -f "$tmp/tags" "$tree"
  rm -rf "$tmp/home"
  measure cold env TANDEM_HOME="$tmp/home" "$tmp/tandem" defs "$tree"
  measure warm env TANDEM_HOME="$tmp/home" "$tmp/tandem" defs "$tree"
  measure floor env TANDEM_BENCH_ROOT="$tree" "$tmp/treesitter.test" -test.run '^$' -test.bench '^BenchmarkParseOnly$' -test.benchtime 1x
done

tags=$(grep -vc '^!_TAG' "$tmp/tags" || true)
defs=$(grep -vc -e '^#' -e '^$' -e '^(' "$tmp/cold.out" || true)
files=$(grep -c '^# ' "$tmp/cold.out" || true)

row() { # name metrics-file
  read -r wall user sys rss <"$2"
  printf '%-14s %8.2f %8.2f %8.2f %8.2f %10d\n' "$1" "$wall" "$user" "$sys" "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$((rss / 1024))"
}
echo
printf '%-14s %8s %8s %8s %8s %10s\n' "" "wall s" "user s" "sys s" "cpu s" "peak MB"
row "ctags -R" "$tmp/ctags.m"
row "parse floor" "$tmp/floor.m"
row "tandem cold" "$tmp/cold.m"
row "tandem warm" "$tmp/warm.m"
echo
ratio() { # metrics-a metrics-b: wall ratio and cpu ratio
  read -r aw au as _ <"$1"; read -r bw bu bs _ <"$2"
  awk -v aw="$aw" -v bw="$bw" -v ac="$(awk -v u="$au" -v s="$as" 'BEGIN{print u+s}')" \
      -v bc="$(awk -v u="$bu" -v s="$bs" 'BEGIN{print u+s}')" 'BEGIN{printf "%5.2fx wall %5.2fx cpu", aw/bw, ac/bc}'
}
echo "cold / ctags:       $(ratio "$tmp/cold.m" "$tmp/ctags.m")   (goal <= 4.5x)"
echo "cold / parse floor: $(ratio "$tmp/cold.m" "$tmp/floor.m")   (goal <= 1.15x)"
echo "warm / ctags:       $(ratio "$tmp/warm.m" "$tmp/ctags.m")   (goal <= 0.1x)"
echo "output: tandem $files files, $defs definition lines; ctags $tags tags"
