#!/usr/bin/env bash
# Installs what building, running and testing Porthole needs, only where it is missing:
# Debian packages (WebKitGTK and friends, Xvfb, the WebKit WebDriver), the UI's npm packages,
# and, with --e2e, tauri-driver. Safe to run again: it does nothing when all is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

want_e2e=0
[ "${1:-}" = "--e2e" ] && want_e2e=1

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian/Ubuntu packages (the list found to work for Tauri 2 + Xvfb + WebDriver;
# xdotool, x11-utils, python3 and xdg-utils drive drag and drop, full screen and the test
# browser of the end-to-end tests).
packages=(
  libwebkit2gtk-4.1-dev build-essential curl wget file libxdo-dev libssl-dev
  libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev pkg-config
  xvfb webkit2gtk-driver dbus-x11 at-spi2-core imagemagick x11-apps
  gnome-keyring libsecret-tools dbus keyutils xdotool x11-utils
  python3 xdg-utils
)
# With --e2e, also Chromium and poppler-utils (the report test opens the shared report in a
# second browser, takes a picture of it and prints it to PDF, read back with pdftotext), and
# python3-dbus and python3-gi (the notification tests' stand-in notification server).
if [ $want_e2e = 1 ]; then packages+=(chromium poppler-utils python3-dbus python3-gi); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "Installing system packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    say "Installing the Rust toolchain (rustup)"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
fi

# The UI's npm packages, exactly as locked. A node_modules linked from another checkout (a
# second git worktree) is that checkout's to install: `npm ci` here would empty it through the
# link, under every checkout that shares it.
if [ ! -L ui/node_modules ] && { [ ! -d ui/node_modules ] ||
  [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; }; then
  say "Installing the UI's npm packages"
  (cd ui && npm ci --no-audit --no-fund --loglevel=error)
fi

# A fresh build and test run fills about 4 GB under target/ (BENCHMARKS.md, "Build"); when the
# disk runs out mid-link the linker dies with a bare "Bus error", which says nothing of disk.
# Warn in plain words first; a part-built target/ needs less, so this does not stop the run.
target_dir=${CARGO_TARGET_DIR:-target}
probe=$target_dir
while [ ! -e "$probe" ]; do probe=$(dirname "$probe"); done
free_kb=$(df -Pk "$probe" 2>/dev/null | awk 'NR==2 {print $4}')
if [ -n "$free_kb" ] && [ "$free_kb" -lt $((6 * 1024 * 1024)) ]; then
  say "Warning: only $((free_kb / 1024)) MB free on the disk that holds $target_dir/; a fresh build needs about 6 GB. If it fails with a linker 'Bus error', free some space and run again."
fi

if [ $want_e2e = 1 ] && ! command -v tauri-driver >/dev/null; then
  say "Installing tauri-driver"
  cargo install tauri-driver --locked --version '^2'
fi
