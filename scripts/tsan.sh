#!/usr/bin/env bash
# Runs the asynchronous display and rendering, queue pool, tiled layer, tile
# cutter, sprite batch, emitter, text-cache, list and feed tests, and the
# Apple-named modules' off-main drawing (image renderers, Core Text frames,
# display links, CATiledLayer tiles and tiled views), and the PDF content
# stream deflated in the background as a page is drawn, and frames and
# pictures drawn in bands on several threads (QueuePool.perform), with the
# pieces of long strokes shared between the bands (StrokeShare), under the
# thread sanitizer (a separate build directory, so the normal debug build
# is not invalidated).
# Any sanitizer warning fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
swift test --sanitize=thread --scratch-path .build-tsan \
  --filter "AsyncLayerTests|TiledLayerTests|QueuePoolTests|PoolQueueTests|TileCutterTests|SpriteBatchTests|EmitterLayerTests|AsyncRenderingTests|ConcurrencyTests|ListViewTests|ListSectionTests|FeedTests|FeedImageTests|UIGraphicsTests|CoreTextTests|CADisplayLinkTests|TiledViewTests|DocumentStreamingTests|QueuePoolPerformTests|BandRenderingTests|BandRendererTests|StrokePiecesTests" 2>&1 | tee "$log"
if grep -q "WARNING: ThreadSanitizer" "$log"; then
  echo "thread sanitizer warnings: $(grep -c 'WARNING: ThreadSanitizer' "$log")" >&2
  exit 1
fi
