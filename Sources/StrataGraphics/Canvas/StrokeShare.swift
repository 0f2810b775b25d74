import StrataQueues
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The long strokes of one picture, shared by the bands that draw it on
/// several threads (`BandRenderer`): each piece of such a stroke
/// (`StrokePieces`) is taken apart once, by whichever band claims it, into
/// edges that every band then reads in the pieces' order. Without it, each
/// band strokes the whole path again (the raster line scene's 100,000
/// points, a third of that scene on one thread).
///
/// The bands make the same drawing calls, so a band's n-th stroke is every
/// band's n-th (`Canvas.strokeCount`); a stroke is shared only when what
/// decides its edges is also the same (`Key`), else the band strokes it
/// alone, with the same result, more slowly.
///
/// `@unchecked Sendable`: the table of strokes is behind a mutex; a shared
/// stroke's recorders are each written by the one thread that claimed it
/// (an atomic counter) and read only after all are finished (a counter
/// read with acquiring ordering, written with releasing ordering).
final class StrokeShare: @unchecked Sendable {
    /// What a stroke's edges depend on, besides its path's verbs and points,
    /// which `pieces` and the path's ends stand for.
    struct Key: Equatable {
        var verbs: Int, points: Int
        var first: Point, last: Point
        var transform: Transform
        var halfWidth: Double, tolerance: Double, reach: Double
        var lineCap: LineCap, lineJoin: LineJoin, miterLimit: Double
        var simplifiesCorners: Bool
        var area: PixelBox
        var mode: StrokeRasterizer.Mode
        var maxEdges: Int, maxVisits: Int
        var pieces: [StrokePiece]
    }

    private struct Table {
        var strokes: [Int: SharedStroke] = [:]
        /// Recorders kept from one picture to the next, with their buffers.
        var spare: [StrokeRasterizer] = []
    }

    /// (`Locked`, a pthread mutex the thread sanitizer follows: under
    /// `Synchronization.Mutex`, whose locking it does not see, two bands
    /// sharing a stroke at once were reported as racing on the table.)
    private let table = Locked(Table())

    init() {}

    /// Stroke `index` of the picture, shared; nil when another stroke
    /// under that number was shared by a band first (the bands' calls
    /// differ), and this band should stroke it alone.
    func stroke(
        _ index: Int, job: StrokeJob, pieces: [StrokePiece], area: PixelBox, mode: StrokeRasterizer.Mode,
        like rasterizer: StrokeRasterizer
    ) -> SharedStroke? {
        let path = job.path
        guard let first = path.points.first, let last = path.points.last else { return nil }
        let key = Key(
            verbs: path.verbs.count, points: path.points.count, first: first, last: last, transform: job.transform,
            halfWidth: job.halfWidth, tolerance: job.tolerance, reach: job.reach, lineCap: job.style.lineCap,
            lineJoin: job.style.lineJoin, miterLimit: job.style.miterLimit, simplifiesCorners: job.simplifiesCorners,
            area: area, mode: mode, maxEdges: rasterizer.maxEdges, maxVisits: rasterizer.maxVisits, pieces: pieces)
        return table.withLock { table -> SharedStroke? in
            if let shared = table.strokes[index] { return shared.key == key ? shared : nil }
            var recorders: [StrokeRasterizer] = []
            for _ in pieces {
                let recorder = table.spare.popLast() ?? StrokeRasterizer()
                recorder.maxEdges = key.maxEdges
                recorder.maxVisits = key.maxVisits
                recorders.append(recorder)
            }
            let shared = SharedStroke(key: key, job: job, recorders: recorders)
            table.strokes[index] = shared
            return shared
        }
    }

    /// The strokes of the picture shared so far.
    var sharedCount: Int { table.withLock { $0.strokes.count } }

    /// Forgets the picture's strokes (when every band has drawn it); their
    /// recorders are kept for the next, their buffers trimmed.
    func reset() {
        table.withLock { table in
            for shared in table.strokes.values {
                for recorder in shared.recorders {
                    recorder.trim()
                    table.spare.append(recorder)
                }
            }
            table.strokes.removeAll(keepingCapacity: true)
            // (A picture with fewer long strokes needs fewer.)
            if table.spare.count > 256 { table.spare.removeLast(table.spare.count - 256) }
        }
    }
}

/// One long stroke's pieces, as edges, shared by the bands of a picture.
///
/// `@unchecked Sendable`: see `StrokeShare`.
final class SharedStroke: @unchecked Sendable {
    let key: StrokeShare.Key
    /// The stroke, as the band that shared it first had it (the others'
    /// are the same: `key`).
    private let job: StrokeJob
    /// One a piece: its edges over the whole area, every row kept.
    let recorders: [StrokeRasterizer]
    /// The next piece to take apart.
    private let next = Atomic<Int>(0)
    /// Pieces taken apart.
    private let finished = Atomic<Int>(0)

    init(key: StrokeShare.Key, job: StrokeJob, recorders: [StrokeRasterizer]) {
        self.key = key
        self.job = job
        self.recorders = recorders
    }

    /// Takes pieces apart until none is left to take, then waits for those
    /// other bands took: when it returns, every recorder holds its piece's
    /// edges. (A band waits only for pieces being taken apart by a band
    /// that is running, so the wait is short and always ends.)
    func record() {
        let count = recorders.count, area = key.area
        let rect = Rect(x: Double(area.x0), y: Double(area.y0), width: Double(area.width), height: Double(area.height))
        while true {
            let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard k < count else { break }
            let recorder = recorders[k]
            recorder.begin(area, samples: 4, mode: key.mode)
            job.run(into: recorder, area: rect, piece: key.pieces[k])
            recorder.noteRecordedStrips()
            finished.wrappingAdd(1, ordering: .releasing)
        }
        while finished.load(ordering: .acquiring) < count { sched_yield() }
    }
}
