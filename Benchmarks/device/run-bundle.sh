#!/usr/bin/env bash
# On the measuring machine: unpacks make-bundle.sh's archive and runs the
# figures of RESULTS.md, "Sixteen cores": the compositor and the raster
# scenes at 1 to 16 threads, and the grid against Blend2D at the same
# thread counts (each engine's runs in turn). Results go to $OUT (or
# ./device-out).
#
#   bash run-bundle.sh BUNDLE.tar.xz [THREADS...]    # default threads: 4 8 16
#
# PASSES (default 2): runs of the compositor and of the quick grid, in turn.
# FULL (default none, e.g. "8 16"): thread counts at which the whole grid
# (1,044 cells) runs once for each engine, after the rest.
set -uo pipefail
archive=${1:?usage: run-bundle.sh BUNDLE.tar.xz [THREADS...]}
shift
counts=${*:-4 8 16}
passes=${PASSES:-2}
full=${FULL:-}
[[ $passes =~ ^[0-9]+$ ]] || { echo "PASSES must be a whole number, not '$passes'" >&2; exit 64; }
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
stamp() { echo "== $(date +%T) $*" >&2; }
(nproc; lscpu) > "$out/machine.txt" 2>&1
for pass in $(seq "$passes"); do
  stamp "layers pass $pass"
  $strata layers --only composite-full,composite-full-4k --threads "$list" --repeat 20 | tee -a "$out/layers.txt"
done
stamp raster
$strata raster --threads "$list" --repeat 20 | tee "$out/raster.txt"
for s in line polygons circles rects area; do $scenes "$s" --repeat 20; done | tee -a "$out/raster.txt"
for pass in $(seq "$passes"); do
  for t in 1 $counts; do
    stamp "quick grid, $t threads, pass $pass"
    a=(); [ "$t" = 1 ] || a=(--threads "$t")
    $grid --quick ${a[@]+"${a[@]}"} --shapes "$b/shapes" >> "$out/grid-quick.txt"
    $strata grid --quick ${a[@]+"${a[@]}"} --shapes "$b/shapes" >> "$out/grid-quick.txt"
  done
done
for t in $full; do
  stamp "whole grid, $t threads"
  a=(); [ "$t" = 1 ] || a=(--threads "$t")
  $grid ${a[@]+"${a[@]}"} --shapes "$b/shapes" >> "$out/grid-all.txt"
  $strata grid ${a[@]+"${a[@]}"} --shapes "$b/shapes" >> "$out/grid-all.txt"
done
stamp done
echo "pair them here: grid.py --engines none --against strata-Nt.txt --baseline blend2d-Nt.txt --threads N --summary-only"
