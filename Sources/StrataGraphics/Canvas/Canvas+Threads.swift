import StrataQueues

/// Draws pictures into one bitmap on several threads at once, with the same
/// pixels, bit for bit, as one canvas drawing them.
///
/// The bitmap's rows are cut into as many horizontal bands as there are
/// threads (at least 16 rows each). `draw(_:)` calls the picture once for
/// each band, with that band's canvas, which draws only the band's rows
/// (`Canvas.limitRows(to:)`): on the calling thread and on the shared
/// `QueuePool`'s queues, the same pool asynchronous layers draw on, so no
/// thread is started beyond it. The canvases are kept from one picture to
/// the next, as a canvas keeps its buffers.
///
/// The picture must draw the same thing each time it is called (not depend
/// on which band it draws) and may run on several threads at once, hence
/// `@Sendable`. Each call makes all the picture's drawing calls: a shape
/// outside the band is passed over once its bounds are known, and a shape
/// across bands is taken apart (flattened, stroked) in each of them, with
/// only its rows in the band filled, except a long stroke (thousands of
/// segments, a chart's line), whose pieces the bands share: each piece is
/// stroked once, by whichever band gets to it first, and every band reads
/// its edges. Large fills, images and long strokes gain the most; many
/// small shapes less.
///
/// A renderer is used from one thread at a time (it is not `Sendable`), and
/// that thread must not use the bitmap while `draw(_:)` runs.
public final class BandRenderer {
    /// What the pictures are drawn into.
    public let bitmap: Bitmap
    /// The most threads a picture is drawn on (1 ... 64).
    public let threadCount: Int
    private let crew: BandCanvases
    private let share = StrokeShare()

    /// A renderer drawing into `bitmap` on up to `threadCount` threads (held
    /// to 1 ... 64, and to a band of at least 16 rows a thread).
    public init(bitmap: Bitmap, threadCount: Int) {
        self.bitmap = bitmap
        self.threadCount = min(64, max(1, threadCount))
        let count = min(self.threadCount, max(1, bitmap.height / 16))
        let rows = bitmap.height
        let share = self.share
        crew = BandCanvases(
            (0..<count).map { band in
                let canvas = Canvas(bitmap: bitmap)
                if count > 1 {
                    canvas.limitRows(to: (rows * band / count)..<(rows * (band + 1) / count))
                    canvas.strokeShare = share
                }
                return canvas
            })
    }

    /// The bands, as device rows.
    public var bands: [Range<Int>] {
        let count = crew.canvases.count, rows = bitmap.height
        return (0..<count).map { (rows * $0 / count)..<(rows * ($0 + 1) / count) }
    }

    /// Draws `picture` into the bitmap, once for each band, and returns when
    /// every band is drawn. Each call starts from a canvas in its initial
    /// graphics state (identity transform, black paint, no clip but the band).
    public func draw(_ picture: @escaping @Sendable (Canvas) -> Void) {
        let crew = self.crew
        QueuePool.shared.perform(tasks: crew.canvases.count, workers: threadCount) { band, _ in
            let canvas = crew.canvases[band]
            canvas.strokeCount = 0
            canvas.saveGState()
            let depth = canvas.stack.count
            picture(canvas)
            // Whatever the picture left begun or saved is ended, so that the
            // next picture starts from the initial state.
            while canvas.layers.count > 0 { canvas.endTransparencyLayer() }
            while canvas.stack.count > depth { canvas.restoreGState() }
            canvas.restoreGState()
        }
        share.reset()
    }
}

extension Canvas {
    /// Draws one picture into `bitmap` on up to `threadCount` threads, with
    /// the same pixels as one canvas drawing it: a `BandRenderer` used once.
    public static func draw(into bitmap: Bitmap, threadCount: Int, _ picture: @escaping @Sendable (Canvas) -> Void) {
        BandRenderer(bitmap: bitmap, threadCount: threadCount).draw(picture)
    }
}

/// The canvases of a renderer's bands, one a band, all on one bitmap.
///
/// `@unchecked Sendable`: `Canvas` and `Bitmap` are not `Sendable`. Band `b`'s
/// canvas is used only by the task drawing band `b` (one at a time: a
/// renderer draws one picture at a time, and `perform` returns after every
/// band), and each canvas writes only its own rows of the bitmap
/// (`limitRows(to:)`), so no pixel or canvas is touched by two threads at
/// once.
private final class BandCanvases: @unchecked Sendable {
    let canvases: [Canvas]
    init(_ canvases: [Canvas]) { self.canvases = canvases }
}
