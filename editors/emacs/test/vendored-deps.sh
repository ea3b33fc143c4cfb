#!/usr/bin/env bash
# Prints the one directory per package to add to Emacs's load-path for
# agent-shell and the packages it needs, at the commits pinned below (and in
# editors/emacs/README.md).
#
# No Emacs package archive is reachable from CI, so the sources are vendored
# beside the repository, in ../shared/vendor/emacs/NAME@COMMIT/ (relative to
# the repository root; see ../shared/vendor/README.md). Nothing is fetched:
# a test that depends on the network, or on a path only one machine has,
# does not say anything about the code. A missing or mismatched folder is
# an error that names it.
set -euo pipefail

# The repository root is three levels above this script; resolving it from
# the script, not the working directory, lets the test run from anywhere.
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../../.." && pwd)
vendor=$root/../shared/vendor/emacs

# name commit upstream the-file-the-test-loads
pins=(
  "agent-shell 264dc76e674bf38e5e42370a1a706e3785f90678 xenodium/agent-shell agent-shell.el"
  "acp.el 9737a9678a658a3289229d7d37459c84db1eef24 xenodium/acp.el acp.el"
  "shell-maker 79181104659ce70900a1ccadaed9ffa67be49924 xenodium/shell-maker shell-maker.el"
)

missing=()
dirs=()
for pin in "${pins[@]}"; do
  read -r name commit upstream lisp <<<"$pin"
  dir=$vendor/$name@$commit
  # SOURCE is "OWNER/NAME COMMIT": it must name the pinned commit, so a
  # folder renamed by hand cannot pass for another version.
  if [ ! -f "$dir/$lisp" ]; then
    missing+=("$upstream@$commit: no $lisp in $dir")
  elif ! read -r src_repo src_commit <"$dir/SOURCE" 2>/dev/null ||
    [ "$src_repo" != "$upstream" ] || [ "$src_commit" != "$commit" ]; then
    missing+=("$upstream@$commit: $dir/SOURCE does not name that repository and commit")
  else
    dirs+=("$dir")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  {
    echo "vendored-deps.sh: the vendored Emacs packages are missing under ../shared/vendor/emacs ($vendor):"
    printf '  %s\n' "${missing[@]}"
    echo "  each must be NAME@COMMIT/ holding the package's Lisp and a SOURCE file \"OWNER/NAME COMMIT\" (see ../shared/vendor/README.md)"
  } >&2
  exit 1
fi
printf '%s\n' "${dirs[@]}"
