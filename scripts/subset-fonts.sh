#!/usr/bin/env bash
# Makes the Demo desktop's three fonts (crates/sim/fonts/) from DejaVu 2.37: only the
# characters the simulated desktop can reasonably be asked to draw, without hinting or
# layout tables (fontdue reads neither), compressed, so the app carries 0.4 MB of fonts
# instead of 1.8 MB (BENCHMARKS.md, "Binary size"). The result is committed; run this again only to
# change the character set below. Needs fontTools (Debian: python3-fonttools) and cargo.
#
#   scripts/subset-fonts.sh
#
# The source is the `dejavu` crate 2.37.0 (DejaVu's upstream release, as the Demo used
# before), fetched by cargo into its registry; the SHA-256 sums below pin those files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=crates/sim/fonts

python=/usr/bin/python3
if ! "$python" -c 'import fontTools' 2>/dev/null; then
  echo "fontTools is missing: apt-get install python3-fonttools" >&2
  exit 1
fi

# Fetch the dejavu crate through a throwaway manifest and find where cargo put it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"
cat >"$tmp/Cargo.toml" <<'EOF'
[package]
name = "dejavu-source"
version = "0.0.0"
edition = "2021"
[dependencies]
dejavu = "=2.37.0"
EOF
touch "$tmp/src/lib.rs"
cargo fetch --quiet --manifest-path "$tmp/Cargo.toml"
manifest=$(cargo metadata --format-version 1 --manifest-path "$tmp/Cargo.toml" |
  "$python" -c 'import json, sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == "dejavu"))')
src="$(dirname "$manifest")/assets/dejavu-fonts-ttf-2.37"

sha256sum --check --quiet <<EOF
7da195a74c55bef988d0d48f9508bd5d849425c1770dba5d7bfc6ce9ed848954  $src/ttf/DejaVuSans.ttf
e6476c1b80502924294eed40894c5b18e06c181444ca953e5334262df9c27724  $src/ttf/DejaVuSans-Bold.ttf
b4a6c3e4faab8773f4ff761d56451646409f29abedd68f05d38c2df667d3c582  $src/ttf/DejaVuSansMono.ttf
7a083b136e64d064794c3419751e5c7dd10d2f64c108fe5ba161eae5e5958a93  $src/LICENSE
EOF

# Latin (Basic, Latin-1, Extended-A and -B, Extended Additional: Vietnamese), spacing and
# combining marks, Greek, Cyrillic; punctuation, super/subscripts, currency, letterlike
# symbols, number forms, arrows, mathematical operators, technical symbols (⌘ ⏎), box
# drawing, blocks, geometric shapes, miscellaneous symbols and dingbats (☀ ✓), the
# replacement character. Whatever falls outside draws as DejaVu's empty box, as a
# character DejaVu lacks always did.
unicodes="U+0020-007E,U+00A0-024F,U+02B0-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,\
U+2000-206F,U+2070-209F,U+20A0-20CF,U+2100-218F,U+2190-21FF,U+2200-22FF,U+2300-23FF,\
U+2500-25FF,U+2600-27BF,U+FFFD"

mkdir -p "$out"
for name in DejaVuSans DejaVuSans-Bold DejaVuSansMono; do
  "$python" -m fontTools.subset "$src/ttf/$name.ttf" \
    --unicodes="$unicodes" \
    --no-hinting --desubroutinize \
    --layout-features='' --drop-tables+=GSUB,GPOS,GDEF,kern,FFTM \
    --name-IDs='*' --name-languages='*' \
    --output-file="$tmp/$name.ttf"
  # Stored compressed (raw DEFLATE); font.rs inflates each once, when the Demo first draws.
  "$python" -c 'import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
sys.stdout.buffer.write(c.compress(open(sys.argv[1], "rb").read()) + c.flush())' \
    "$tmp/$name.ttf" >"$out/$name.ttf.deflate"
done
cp "$src/LICENSE" "$out/LICENSE"
ls -l "$out"
