#!/usr/bin/env bash
# Packs the release strata-bench, Blend2D's grid and scene tools (from the
# peers' virtual environment), every library they load (glibc and its
# loader apart, in glibc/), the grid's shapes and two fonts with a
# fontconfig file of their own, into one archive for a machine without
# Swift or the peers (the 16-core machine of RESULTS.md, "Sixteen cores").
# There, run-bundle.sh unpacks it and measures.
#
#   bash Benchmarks/device/make-bundle.sh OUT_DIR     # writes OUT_DIR/bundle.tar.xz
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: make-bundle.sh OUT_DIR}
bench=Benchmarks/.build/release/strata-bench
venv=${STRATA_PEERS_VENV:-$HOME/.cache/strata-peers/venv}
[ -x "$bench" ] || { echo "build it first: (cd Benchmarks && swift build -c release --product strata-bench)" >&2; exit 1; }
[ -x "$venv/bin/blend2d-grid" ] || { echo "no peers: run ../shared/bench/setup-peers.sh" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
b=$work/bundle
mkdir -p "$b/bin" "$b/lib" "$b/glibc" "$b/fonts"
strip --strip-unneeded -o "$b/bin/strata-bench" "$bench"
cp "$venv/bin/blend2d-grid" "$venv/bin/blend2d-scenes" "$b/bin/"
for exe in "$bench" "$venv/bin/blend2d-grid" "$venv/bin/blend2d-scenes"; do
  ldd "$exe" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    case $(basename "$lib") in
      libc.so.6 | libm.so.6 | libpthread.so.0 | libdl.so.2 | librt.so.1) cp -L "$lib" "$b/glibc/" ;;
      *) cp -L "$lib" "$b/lib/" ;;
    esac
  done
done
cp -L /lib64/ld-linux-x86-64.so.2 "$b/glibc/"
for f in "$b"/lib/*.so*; do strip --strip-unneeded "$f" 2>/dev/null || true; done
cp -r ../shared/bench/grid-shapes "$b/shapes"
for family in "Noto Sans" "DejaVu Sans"; do cp "$(fc-match -f '%{file}' "$family")" "$b/fonts/"; done
cat > "$b/fonts/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir prefix="relative">.</dir>
  <cachedir>/tmp/strata-fc-cache</cachedir>
  <alias><family>sans-serif</family><prefer><family>Noto Sans</family><family>DejaVu Sans</family></prefer></alias>
</fontconfig>
CONF
mkdir -p "$out"
tar cf - -C "$work" bundle | xz -T0 -6 > "$out/bundle.tar.xz"
ls -l "$out/bundle.tar.xz"
