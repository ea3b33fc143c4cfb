#!/usr/bin/env bash
# Benchmarks `tandem map` on one source tree (by default the Go toolchain's
# own source) against `tandem defs` on the same tree, cold (fresh
# $TANDEM_HOME, so no index cache) and warm (same cache), and prints wall
# and CPU time, peak RSS and the map/defs ratios.
# Usage: bench/map.sh [TREE]   (BENCH_RUNS=N runs N interleaved rounds and keeps each command's best)
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-$(go env GOROOT)/src}
runs=${BENCH_RUNS:-1}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tandem" ./cmd/tandem 2>"$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }

. bench/measure.sh

echo "tree: $tree  ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
for _ in $(seq "$runs"); do
  rm -rf "$tmp/home"
  measure defs-cold env TANDEM_HOME="$tmp/home" "$tmp/tandem" defs "$tree"
  measure defs-warm env TANDEM_HOME="$tmp/home" "$tmp/tandem" defs "$tree"
  rm -rf "$tmp/home"
  measure map-cold env TANDEM_HOME="$tmp/home" "$tmp/tandem" map "$tree"
  measure map-warm env TANDEM_HOME="$tmp/home" "$tmp/tandem" map "$tree"
done

row() { # name metrics-file
  read -r wall user sys rss <"$2"
  printf '%-12s %8.2f %8.2f %8.2f %8.2f %10d\n' "$1" "$wall" "$user" "$sys" "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$((rss / 1024))"
}
echo
printf '%-12s %8s %8s %8s %8s %10s\n' "" "wall s" "user s" "sys s" "cpu s" "peak MB"
row "defs cold" "$tmp/defs-cold.m"
row "map cold" "$tmp/map-cold.m"
row "defs warm" "$tmp/defs-warm.m"
row "map warm" "$tmp/map-warm.m"
echo
ratio() { # metrics-a metrics-b: wall ratio and cpu ratio
  read -r aw au as _ <"$1"; read -r bw bu bs _ <"$2"
  awk -v aw="$aw" -v bw="$bw" -v ac="$(awk -v u="$au" -v s="$as" 'BEGIN{print u+s}')" \
      -v bc="$(awk -v u="$bu" -v s="$bs" 'BEGIN{print u+s}')" 'BEGIN{printf "%5.2fx wall %5.2fx cpu", aw/bw, ac/bc}'
}
echo "map cold / defs cold: $(ratio "$tmp/map-cold.m" "$tmp/defs-cold.m")"
echo "map warm / defs warm: $(ratio "$tmp/map-warm.m" "$tmp/defs-warm.m")"
echo "map: $(grep -c '^[^ ]' "$tmp/map-warm.out") files, $(wc -c <"$tmp/map-warm.out") bytes (budget $(( 1500 * 4 )) bytes)"
