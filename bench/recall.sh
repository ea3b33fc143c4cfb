#!/usr/bin/env bash
# Recall and precision of `tandem defs` against universal-ctags, per language,
# on real trees (goals: recall >= 97 %, precision >= 95 %, outside function
# bodies). Each tree is one line of bench/recall's table; the rules for what
# counts (prototypes, anonymous names, overloads, minified files...) are in
# bench/recall/main.go.
#
# Trees, installed on first use into $BENCH_CACHE (default .cache/bench-recall)
# or from Debian's packages:
#   go          the Go toolchain's own source (GOROOT/src)
#   python      the Python standard library (/usr/lib/python3.*)
#   c           /usr/include without its C++ and LLVM directories
#   cpp         LLVM's headers (apt llvm-14-dev)
#   rust        the Rust standard library (apt rust-src)
#   java        java.base from the JDK's src.zip (apt openjdk-17-source)
#   typescript  RxJS's sources (npm rxjs)
#   javascript  lodash (npm lodash)
#
# usage: bench/recall.sh [LANG...]     (default: all of them; SHOW=N prints N misses each)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${BENCH_CACHE:-$repo/.cache/bench-recall}
show=${SHOW:-0}
langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(go python c cpp rust java typescript javascript)

apt_need() { # apt_need PACKAGE...: install what is missing
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "recall.sh: installing ${missing[*]} (apt)" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then apt_need universal-ctags; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tandem" ./cmd/tandem 2>"$tmp/build.log" || { cat "$tmp/build.log" >&2; exit 1; }
go build -o "$tmp/recall" ./bench/recall

tree() { # tree LANG: print the tree's path, installing it if needed
  case $1 in
    go) go env GOROOT | sed 's|$|/src|' ;;
    python) ls -d /usr/lib/python3.* | head -1 ;;
    c)
      if [ ! -d "$cache/c" ]; then
        mkdir -p "$cache/c"
        (cd /usr/include && tar cf - --exclude=./c++ --exclude='./llvm*' --exclude=./node .) | (cd "$cache/c" && tar xf -)
      fi
      echo "$cache/c" ;;
    cpp) apt_need llvm-14-dev; echo /usr/include/llvm-14 ;;
    rust) apt_need rust-src; ls -d /usr/src/rustc-*/library | head -1 ;;
    java)
      apt_need openjdk-17-source
      if [ ! -d "$cache/java/java.base" ]; then
        mkdir -p "$cache/java"
        (cd "$cache/java" && unzip -q "$(ls /usr/lib/jvm/*/lib/src.zip | head -1)" 'java.base/*')
      fi
      echo "$cache/java" ;;
    typescript|javascript)
      if [ ! -d "$cache/npm/node_modules/rxjs" ] || [ ! -d "$cache/npm/node_modules/lodash" ]; then
        mkdir -p "$cache/npm"
        [ -f "$cache/npm/package.json" ] || echo '{"private":true}' > "$cache/npm/package.json"
        (cd "$cache/npm" && npm install --no-audit --no-fund --loglevel=error rxjs@7.8.2 lodash@4.17.21 >&2)
      fi
      if [ "$1" = typescript ]; then echo "$cache/npm/node_modules/rxjs/src"; else echo "$cache/npm/node_modules/lodash"; fi ;;
    *) echo "recall.sh: unknown language $1" >&2; exit 2 ;;
  esac
}

# ctags labels .h files C++; tandem reports each file under its own language,
# so a tree's table row for its language is the one that counts.
want() { case $1 in cpp) echo c ;; *) echo "$1" ;; esac; }

for l in "${langs[@]}"; do
  t=$(tree "$l")
  echo "== $l: $t"
  "$tmp/recall" -tandem "$tmp/tandem" -show "$show" "$t" | awk -v l="$(want "$l")" '!/^[a-z+]+ +[0-9]/ || $1==l'
done
