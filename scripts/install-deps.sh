#!/usr/bin/env bash
# Installs the Debian packages Strata builds against, when they are missing.
# Safe to run repeatedly; does nothing on a machine that has them.
set -euo pipefail
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
updated=0
install() {
  echo "installing: $*" >&2
  if [ $updated -eq 0 ]; then $sudo_cmd apt-get update -q; updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "$@"
}

# Required: the build needs these.
needed=()
command -v pkg-config >/dev/null 2>&1 || needed+=(pkg-config)
pkg-config --exists libpng 2>/dev/null || needed+=(libpng-dev)
pkg-config --exists libjpeg 2>/dev/null || needed+=(libjpeg-dev)
pkg-config --exists freetype2 2>/dev/null || needed+=(libfreetype-dev)
pkg-config --exists fontconfig 2>/dev/null || needed+=(libfontconfig-dev)
fc-list 2>/dev/null | grep -q DejaVuSans.ttf || needed+=(fonts-dejavu-core)
[ ${#needed[@]} -eq 0 ] || install "${needed[@]}"

# Optional: a CJK face for the text tests' fallback cases. The library works
# without one (Chinese then draws as boxes) and those tests are skipped, so a
# failed install only warns.
if [ "${STRATA_SKIP_CJK_FONT:-}" != 1 ] && ! fc-list 2>/dev/null | grep -qi wqy; then
  install fonts-wqy-microhei || echo "warning: fonts-wqy-microhei did not install; CJK text tests will be skipped" >&2
fi
