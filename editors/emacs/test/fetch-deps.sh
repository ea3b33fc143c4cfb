#!/usr/bin/env bash
# Puts agent-shell and the packages it needs, at the commits pinned below
# (and in editors/emacs/README.md), into a cache outside the clone, then
# prints the one directory per package to add to Emacs's load-path.
#
# No Emacs package archive is reachable from CI, so the sources come from a
# git mirror of each repository on this machine ($TANDEM_GIT_MIRRORS, a
# directory of OWNER+NAME/repo git dirs), else from GitHub's tarball
# download when the network allows it. A filled cache is never refetched.
set -euo pipefail

cache=${TANDEM_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tandem-test}/emacs
mirrors=${TANDEM_GIT_MIRRORS:-/work/.mirror}

# name commit upstream [other mirrors holding the same commit]
pins=(
  "agent-shell 264dc76e674bf38e5e42370a1a706e3785f90678 xenodium/agent-shell timvisher-dd/agent-shell"
  "acp.el 9737a9678a658a3289229d7d37459c84db1eef24 xenodium/acp.el"
  "shell-maker 79181104659ce70900a1ccadaed9ffa67be49924 xenodium/shell-maker"
)

# fill DIR with REPO at COMMIT from a mirror or GitHub; fails when neither has it.
fill() {
  local dir=$1 commit=$2 repo
  shift 2
  for repo in "$@"; do
    local git_dir="$mirrors/${repo/\//+}/repo"
    if git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
      # Only the top-level Lisp and the licence: a mirror may lack large
      # files (images), and nothing else is loaded.
      local files file
      files=$(git --git-dir="$git_dir" ls-tree --name-only "$commit" | grep -E '\.el$|^LICENSE$') || return 1
      for file in $files; do
        git --git-dir="$git_dir" show "$commit:$file" >"$dir/$file" || return 1
      done
      return
    fi
  done
  curl -fsSL --connect-timeout 5 --max-time 60 -o "$dir/src.tgz" "https://codeload.github.com/$1/tar.gz/$commit" || return 1
  tar -xz -C "$dir" --strip-components=1 -f "$dir/src.tgz" && rm "$dir/src.tgz"
}

mkdir -p "$cache"
for pin in "${pins[@]}"; do
  read -r name commit upstream others <<<"$pin"
  dir="$cache/$name@$commit"
  if [ ! -f "$dir/.complete" ]; then
    rm -rf "$dir.part" && mkdir -p "$dir.part"
    # shellcheck disable=SC2086 # others is a space-separated list on purpose
    if ! fill "$dir.part" "$commit" "$upstream" $others; then
      rm -rf "$dir.part"
      echo "fetch-deps.sh: cannot get $upstream@$commit (no git mirror under $mirrors, no network)" >&2
      exit 1
    fi
    touch "$dir.part/.complete"
    rm -rf "$dir" && mv "$dir.part" "$dir"
  fi
  echo "$dir"
done
