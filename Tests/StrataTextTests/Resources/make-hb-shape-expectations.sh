#!/usr/bin/env bash
# Writes hb-shape.json: HarfBuzz's own hb-shape output (libharfbuzz-bin) for
# the words ScriptShapingTests shapes, as the expectations the tests use when
# hb-shape is not installed. Run from this folder after changing the cases.
set -euo pipefail
cases=(
  "Noto Sans Arabic|مرحبا بالعالم"
  "Noto Sans Arabic|الرقم 2026 والنسبة"
  "Noto Sans Devanagari|क्षत्रिय श्री नमस्ते"
  "Noto Sans Devanagari|हिन्दी"
  "Noto Sans Thai|ภาษาไทย น้ำ"
  "DejaVu Sans|office fly first"
  "DejaVu Sans|AVATAR Wave"
  "Noto Color Emoji|👨‍👩‍👧‍👦🇨🇳👍🏽1️⃣❤️"
)
{
  echo "["
  n=0
  for c in "${cases[@]}"; do
    family="${c%%|*}"; text="${c#*|}"
    file="$(fc-match -f '%{file}' "$family")"
    out="$(hb-shape --no-glyph-names --utf8-clusters --output-format=json "$file" "$text")"
    [ $n -eq 0 ] || echo ","
    printf '{"family": "%s", "text": "%s", "glyphs": %s}' "$family" "$text" "$out"
    n=$((n + 1))
  done
  echo
  echo "]"
} > hb-shape.json
