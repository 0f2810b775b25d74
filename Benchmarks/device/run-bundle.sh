#!/usr/bin/env bash
# On the measuring machine: unpacks make-bundle.sh's archive and runs the
# figures of RESULTS.md, "Sixteen cores": the compositor and the raster
# scenes at 1 to 16 threads, and the grid against Blend2D at the same
# thread counts (each engine's runs in turn). Results go to $OUT (or
# ./device-out).
#
#   bash run-bundle.sh BUNDLE.tar.xz [THREADS...]    # default threads: 4 8 16
set -uo pipefail
archive=${1:?usage: run-bundle.sh BUNDLE.tar.xz [THREADS...]}
shift
counts=${*:-4 8 16}
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
unpacked=$(mktemp -d)
tar xJf "$archive" -C "$unpacked" || exit 1
b=$unpacked/bundle
loader="$b/glibc/ld-linux-x86-64.so.2 --library-path $b/lib:$b/glibc"
export FONTCONFIG_FILE=$b/fonts/fonts.conf
strata="$loader $b/bin/strata-bench"
grid="$loader $b/bin/blend2d-grid"
scenes="$loader $b/bin/blend2d-scenes"
list="1,${counts// /,}"
(nproc; lscpu) > "$out/machine.txt" 2>&1
$strata layers --only composite-full,composite-full-4k --threads "$list" --repeat 20 | tee "$out/layers.txt"
$strata raster --threads "$list" --repeat 20 | tee "$out/raster.txt"
for s in line polygons circles rects area; do $scenes "$s" --repeat 20; done | tee -a "$out/raster.txt"
for pass in 1 2; do
  for t in 1 $counts; do
    a=(); [ "$t" = 1 ] || a=(--threads "$t")
    $grid --quick ${a[@]+"${a[@]}"} --shapes "$b/shapes" >> "$out/grid-quick.txt"
    $strata grid --quick ${a[@]+"${a[@]}"} --shapes "$b/shapes" >> "$out/grid-quick.txt"
  done
done
echo "pair them here: grid.py --engines none --against strata-Nt.txt --baseline blend2d-Nt.txt --threads N --summary-only"
