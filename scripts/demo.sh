#!/usr/bin/env bash
# Builds Porthole and opens it. With no account connected it starts on the built-in Demo
# service (the simulator, in-process), so a new user can try everything without an account.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

echo "==> Building the interface" >&2
(cd ui && npm run build --silent)
echo "==> Building and opening Porthole" >&2
exec cargo run -p porthole --release "$@"
