#!/usr/bin/env bash
# Builds Porthole's release packages with Tauri's bundler (the Tauri CLI from the UI's npm
# packages): a .deb and an .rpm always, an AppImage where its tools can be had. They land in
# target/release/bundle/ (or $CARGO_TARGET_DIR/release/bundle/), and their paths are printed.
#
# The .deb and .rpm are written by the bundler itself (no dpkg-deb or rpmbuild needed). The
# AppImage is not: the bundler downloads linuxdeploy and its GTK plugin from GitHub when it
# first makes one, so on a machine that cannot reach GitHub it is skipped, and said why.
#
# Packages built here check for no updates: the key updates must be signed with is written
# into the release workflow's builds only (docs/release.md).
#
# --debug: a .deb of the debug build instead (target/debug/bundle/deb/), for CI's install
# test (scripts/test.sh): the same bundler, configuration and package layout, with the debug
# program the other tests already built, so CI does not pay for a release build. Not a
# package to hand anyone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

profile=release
case "${1:-}" in
  "") ;;
  --debug) profile=debug ;;
  *) echo "usage: scripts/package.sh [--debug]" >&2; exit 2 ;;
esac

target_dir=${CARGO_TARGET_DIR:-$PWD/target}
bundle_dir=$target_dir/$profile/bundle
tauri=ui/node_modules/.bin/tauri
# Said outright: left to itself the CLI takes the first package.json or tauri.conf.json it
# finds below here, which can be a benchmark's (bench/) rather than the app's.
export TAURI_APP_PATH=$PWD/src-tauri TAURI_FRONTEND_PATH=$PWD/ui

# Packages from an earlier build would be reported as this build's.
rm -rf "$bundle_dir/deb" "$bundle_dir/rpm" "$bundle_dir/appimage"

if [ $profile = debug ]; then
  say "Packing the debug app into a .deb (the test package, not one to hand out)"
  # `tauri bundle` packs the program cargo built; `tauri build` would first run the
  # interface's build again (beforeBuildCommand), and ui/dist's fresh files make cargo compile
  # the app once more. So: the interface only when it was never built, and the debug program
  # as scripts/test.sh builds it, with the workspace's features (nothing to do right after it;
  # `-p porthole` alone would build Tauri again with other features: see scripts/test.sh).
  [ -f ui/dist/index.html ] || npm --prefix ui run build
  cargo build --workspace --bins --tests --locked
  "$tauri" bundle --ci --debug --bundles deb
  echo "  $(ls "$bundle_dir"/deb/*.deb)"
  exit 0
fi

say "Building the release app and its .deb and .rpm (the release build takes a while)"
# --ci: no prompts. The bundler runs the interface's build first (beforeBuildCommand).
"$tauri" build --ci --bundles deb,rpm -- --locked

# The AppImage bundles the binary built above (`tauri bundle` does not build again).
appimage_note=""
if curl -sfI --max-time 15 -o /dev/null https://github.com/; then
  say "Making the AppImage"
  if ! "$tauri" bundle --ci --bundles appimage; then
    appimage_note="AppImage skipped: its bundling failed (see the messages above); the .deb and .rpm are complete."
  fi
else
  appimage_note="AppImage skipped: Tauri's bundler downloads linuxdeploy and its plugins from GitHub to make one, and GitHub cannot be reached from this machine. The .deb and .rpm do not need them."
fi

say "Packages"
found=0
for f in "$bundle_dir"/deb/*.deb "$bundle_dir"/rpm/*.rpm "$bundle_dir"/appimage/*.AppImage; do
  [ -f "$f" ] || continue
  echo "  $f"
  found=1
done
[ -n "$appimage_note" ] && echo "  $appimage_note"
[ $found = 1 ] || { echo "no package was made" >&2; exit 1; }
