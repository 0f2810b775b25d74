#!/usr/bin/env bash
# Screenshots of every `strata demo` in a real X window, for the README:
# starts an Xvfb of its own (a free display number), runs each demo for two
# seconds with its scripted input, and saves what the window shows
# (XGetImage) to docs/screens/demo-NAME.png.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bash "$here/scripts/install-deps.sh"
cd "$here"
swift build -c release --product strata
mkdir -p docs/screens
fifo="$(mktemp -u)"
mkfifo "$fifo"
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$fifo" 2>/dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -f "$fifo"' EXIT
read -r number <"$fifo"
for name in graph chart ruler feed gallery; do
  DISPLAY=":$number" .build/release/strata demo "$name" --scale 1 --seconds 2.5 --scripted \
    --screenshot "docs/screens/demo-$name.png"
  echo "docs/screens/demo-$name.png"
done
