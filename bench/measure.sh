# Sourced by bench scripts (needs $tmp, a scratch directory): timer runs a
# command and reports "wall= user= sys= maxrss_kb=" on stderr, and
# measure NAME CMD... runs CMD once (stdout to $tmp/NAME.out) and keeps in
# $tmp/NAME.m the "wall user sys maxrss_kb" of NAME's best (lowest wall)
# run so far.
if [ -x /usr/bin/time ]; then
  timer() { /usr/bin/time -f "wall=%e user=%U sys=%S maxrss_kb=%M" "$@"; }
else
  go build -o "$tmp/rusage" ./bench/rusage
  timer() { "$tmp/rusage" "$@"; }
fi

measure() {
  local name=$1; shift
  timer "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || { cat "$tmp/$name.err" >&2; exit 1; }
  local line best
  line=$(grep -E '^wall=' "$tmp/$name.err" | tail -1 | sed 's/[a-z_]*=//g')
  best=$(cat "$tmp/$name.m" 2>/dev/null || true)
  if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then echo "$line" >"$tmp/$name.m"; fi
}
