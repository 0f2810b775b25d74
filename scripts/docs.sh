#!/usr/bin/env bash
# Builds the DocC documentation of every public module (swift-docc-plugin),
# failing on any warning: a symbol link that does not resolve, a parameter
# left undocumented in a comment that documents the others. The archives go
# to .build/plugins/Swift-DocC/outputs/. CI runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(StrataQueues StrataGraphics StrataText StrataLayers StrataTiles StrataCharts StrataControls StrataX11
    StrataX11Testing StrataWayland StrataWindow StrataDocuments StrataAccessibility StrataTestSupport StrataDemos CoreGraphics QuartzCore CoreText UIKit)
args=()
for m in "${modules[@]}"; do args+=(--target "$m"); done
swift package generate-documentation "${args[@]}" --warnings-as-errors
