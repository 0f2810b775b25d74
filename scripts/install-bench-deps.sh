#!/usr/bin/env bash
# Installs what `strata-bench tiles` compares against: Debian's libvips-tools
# (the `vips` command). Safe to run repeatedly.
set -euo pipefail
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
if ! command -v vips >/dev/null 2>&1; then
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q libvips-tools
fi
vips --version
