#!/usr/bin/env bash
# Builds Porthole and opens it. With no account connected it starts on the built-in Demo
# service (the simulator, in-process), so a new user can try everything without an account.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

# Rebuild the interface only when its sources (or the word catalog it imports) changed: a fresh build changes ui/dist, which
# the app embeds, and that would make cargo rebuild the whole app on every start.
if [ ! -f ui/dist/index.html ] || [ -n "$(find ui/src ui/index.html ui/package-lock.json ui/vite.config.ts locales -newer ui/dist/index.html -print -quit)" ]; then
  echo "==> Building the interface" >&2
  (cd ui && npm run build --silent)
fi
echo "==> Building and opening Porthole" >&2
exec cargo run -p porthole --release "$@"
