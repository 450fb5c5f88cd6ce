#!/usr/bin/env bash
# Type-checks the app's Rust code for Windows or macOS from Linux: `cargo check -p porthole
# --target <target>` (docs/release.md has what it showed and what it cannot show).
#
#   scripts/cross-check.sh x86_64-pc-windows-msvc | aarch64-apple-darwin | x86_64-apple-darwin
#
# Some dependencies compile C in their build scripts (ring, libsqlite3-sys's bundled SQLite,
# rquickjs-sys's QuickJS; for macOS also objc2-exception-helper and mac-notification-sys), and
# neither MSVC nor Apple's SDK exists on Linux, so their build scripts fail and cargo never
# reaches our code. Here they get a stand-in compiler and
# archiver that write empty objects: the C is not compiled (nothing made this way can be
# linked), but every Rust crate, ours included, is type-checked for the target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"

target=${1:?usage: scripts/cross-check.sh <target triple>}
rustup target add "$target"

stand_in=$(mktemp -d)
trap 'rm -rf "$stand_in"' EXIT
cat >"$stand_in/cc" <<'EOF'
#!/usr/bin/env bash
# Refuses cc-rs's family probe (-E), so cc-rs goes by the name (cl: MSVC, clang: Clang), and
# writes an empty file wherever an object or archive is asked for.
[ "${1:-}" = "-E" ] && exit 1
out=""
prev=""
for a in "$@"; do
  case "$a" in
    /Fo* | -Fo*) out=${a:3} ;;
    /OUT:* | -OUT:* | /out:* | -out:*) out=${a:5} ;;
    *.a | *.lib) [ -z "$out" ] && [ "$prev" != "-o" ] && out=$a ;;
  esac
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
[ -n "$out" ] && printf '!<arch>\n' >"$out"
exit 0
EOF
chmod +x "$stand_in/cc"
case "$target" in
  *-msvc) compiler=$stand_in/cl archiver=$stand_in/lib ;;
  *) compiler=$stand_in/clang archiver=$stand_in/ar ;;
esac
ln -s cc "$compiler"
ln -s cc "$archiver"
var=${target//-/_}
export "CC_$var=$compiler" "AR_$var=$archiver"

cargo check -p porthole --locked --target "$target"
