internal import CJPEG
internal import CPNG
import Dispatch
import Foundation
import StrataGraphics
import StrataLayers
import StrataQueues
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a JPEG or PNG of any size into a `TilePyramid`, reading it a band of
/// rows at a time: the full level's tiles are cut from each band as it is
/// read, and every band is shrunk (2 × 2 pixel averages) into the next level's
/// band, and so on down, so memory holds about two bands per level, never the
/// image. Tiles are encoded and written on the shared `QueuePool`, a few at a
/// time, while the next rows are decoded.
///
/// Baseline JPEGs and non-interlaced PNGs of any size stream. Progressive
/// JPEGs are decoded by libjpeg from all their coefficients (about 2 bytes a
/// sample) and interlaced PNGs whole: beyond `maximumMemory` they are refused
/// with a message saying so. JPEG tiles have no alpha: transparent parts of a
/// PNG are put on `background`.
///
/// Output goes to a hidden directory inside the destination first and is
/// moved into place at the end; on any error it is removed, and the
/// destination is left as it was.
public struct TileCutter: Sendable {
    /// Pixels a side (16…4096; default 256).
    public var tileSize = 256
    public var format = TilePyramid.Format.jpeg
    /// JPEG quality, 1…100 (default 90).
    public var quality = 90
    /// What transparent pixels are put on for JPEG tiles (default white).
    public var background = Color.white
    /// The most memory cutting may hold: the bands (about three tile rows of
    /// the image's width), an interlaced PNG decoded whole with them, and
    /// libjpeg's coefficients for a progressive JPEG (checked on their own, so
    /// a progressive file may take up to this plus its bands).
    public var maximumMemory: UInt64 = 1 << 30
    public var pool = QueuePool.shared

    public init() {}

    /// Cuts `input` into a pyramid in `output` (created if missing; it must be
    /// empty, or hold a pyramid and `replacing` be set). `progress` is called
    /// on the calling thread with tiles written and the total.
    @discardableResult
    public func cut(
        _ input: String, into output: String, replacing: Bool = false,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(TilePyramidError) -> TilePyramid {
        guard (16...4096).contains(tileSize) else {
            throw .invalidOption("the tile size must be 16 to 4096 pixels, not \(tileSize)")
        }
        guard (1...100).contains(quality) else { throw .invalidOption("the JPEG quality must be 1 to 100, not \(quality)") }
        let source = try RowSource(path: input, maximumMemory: maximumMemory, tileSize: tileSize)
        defer { source.close() }
        let bandBytes = RowSource.bandBytes(width: source.width, tileSize: tileSize)
        guard bandBytes <= maximumMemory else {
            throw .input(
                path: input,
                reason:
                    "cutting a \(source.width)-pixel-wide image into \(tileSize)-pixel tiles needs about \(bandBytes >> 20) MB of bands, more than the \(maximumMemory >> 20) MB allowed; use smaller tiles"
            )
        }
        let staging = try prepareOutput(output, replacing: replacing)
        let pyramid = TilePyramid(width: source.width, height: source.height, tileSize: tileSize, format: format)
        do {
            for level in pyramid.levels.indices {
                guard mkdir("\(staging)/\(level)", 0o755) == 0 else {
                    throw TilePyramidError.output(path: output, reason: "cannot create a level directory: \(String(cString: strerror(errno)))")
                }
            }
            try run(source, pyramid, staging, progress)
            let json = try JSONEncoder().encode(pyramid)
            guard FileManager.default.createFile(atPath: "\(staging)/pyramid.json", contents: json) else {
                throw TilePyramidError.output(path: output, reason: "cannot write pyramid.json")
            }
            // Into place: the levels, then the description last.
            for level in pyramid.levels.indices {
                guard rename("\(staging)/\(level)", "\(output)/\(level)") == 0 else {
                    throw TilePyramidError.output(path: output, reason: "cannot move level \(level) into place: \(String(cString: strerror(errno)))")
                }
            }
            guard rename("\(staging)/pyramid.json", "\(output)/pyramid.json") == 0 else {
                throw TilePyramidError.output(path: output, reason: "cannot move pyramid.json into place")
            }
            try? FileManager.default.removeItem(atPath: staging)
            return pyramid
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            for level in pyramid.levels.indices where !FileManager.default.fileExists(atPath: "\(output)/pyramid.json") {
                try? FileManager.default.removeItem(atPath: "\(output)/\(level)")
            }
            if let e = error as? TilePyramidError { throw e }
            throw .output(path: output, reason: "\(error)")
        }
    }

    /// Makes `output` ready and returns a fresh staging directory inside it.
    private func prepareOutput(_ output: String, replacing: Bool) throws(TilePyramidError) -> String {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .output(path: output, reason: "exists and is not a directory") }
            let entries = ((try? fm.contentsOfDirectory(atPath: output)) ?? []).filter { !$0.hasPrefix(".strata-tiles-") }
            if !entries.isEmpty {
                guard replacing, entries.contains("pyramid.json") else {
                    throw .output(
                        path: output,
                        reason: replacing
                            ? "holds files that are not a pyramid; not replacing them"
                            : "is not empty (pass --replace to replace a pyramid there)")
                }
                // Only what a pyramid consists of.
                for entry in entries where entry == "pyramid.json" || Int(entry) != nil {
                    try? fm.removeItem(atPath: "\(output)/\(entry)")
                }
            }
        } else {
            do {
                try fm.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw .output(path: output, reason: "cannot create the directory: \(error.localizedDescription)")
            }
        }
        let staging = "\(output)/.strata-tiles-\(getpid())"
        try? fm.removeItem(atPath: staging)
        guard mkdir(staging, 0o755) == 0 else {
            throw .output(path: output, reason: "cannot write there: \(String(cString: strerror(errno)))")
        }
        return staging
    }

    // MARK: The pipeline

    private func run(
        _ source: RowSource, _ pyramid: TilePyramid, _ dir: String,
        _ progress: ((Int, Int) -> Void)?
    ) throws(TilePyramidError) {
        let channels = format == .jpeg ? 3 : 4
        let writer = TileWriter(dir: dir, pyramid: pyramid, quality: quality, pool: pool)
        // On a throw too: tiles still being written would otherwise land in
        // the staging folder while the caller removes it, and keep it alive
        // (a race the test suite, with the pool busy, caught once).
        defer { writer.finish() }
        let levels = pyramid.levels.enumerated().map { LevelBand(index: $0.offset, level: $0.element, tileSize: tileSize, channels: channels) }
        let bg = (UInt32((background.red * 255).rounded()), UInt32((background.green * 255).rounded()), UInt32((background.blue * 255).rounded()))
        let width = source.width
        let bandRows = min(tileSize, source.height)
        var input = [UInt8](repeating: 0, count: width * source.channels * bandRows)
        var row = [UInt8](repeating: 0, count: width * channels)
        var readRows = 0
        let total = pyramid.tileCount
        while readRows < source.height {
            let n = try input.withUnsafeMutableBufferPointer { buffer throws(TilePyramidError) in
                try source.read(into: buffer.baseAddress!, rows: min(bandRows, source.height - readRows))
            }
            guard n > 0 else { throw .input(path: source.path, reason: "the image data ended after \(readRows) of \(source.height) rows") }
            for r in 0..<n {
                let sourceRow = try input.withUnsafeBufferPointer { src throws(TilePyramidError) -> Bool in
                    let start = src.baseAddress! + r * width * source.channels
                    // RGB into RGB needs no conversion: the row goes in as read.
                    guard source.channels != 3 || channels != 3 else {
                        try push(start, into: 0, levels, writer)
                        return true
                    }
                    row.withUnsafeMutableBufferPointer { convert(start, source.channels, $0.baseAddress!, channels, width, bg) }
                    return false
                }
                if !sourceRow {
                    try row.withUnsafeBufferPointer { (r: UnsafeBufferPointer<UInt8>) throws(TilePyramidError) in
                        try push(r.baseAddress!, into: 0, levels, writer)
                    }
                }
            }
            readRows += n
            try writer.check()
            progress?(writer.written, total)
        }
        // The last, short bands, and rows left without a partner.
        for i in levels.indices {
            if let lone = levels[i].takePendingRow(), i + 1 < levels.count {
                let half = levels[i + 1].scratch(levels[i].level.width)
                LevelBand.shrink(lone, nil, levels[i].level.width, channels, half)
                try push(half, into: i + 1, levels, writer)
            }
            try levels[i].flush(writer)
        }
        writer.finish()
        try writer.check()
        progress?(writer.written, total)
    }

    /// Adds a row to level `i`: into its band (cut into tiles when full), and,
    /// paired with the row before, shrunk into the next level.
    private func push(_ row: UnsafePointer<UInt8>, into i: Int, _ levels: [LevelBand], _ writer: TileWriter) throws(TilePyramidError) {
        let level = levels[i]
        try level.append(row, writer)
        guard i + 1 < levels.count else { return }
        if let previous = level.pairWith(row) {
            let half = levels[i + 1].scratch(level.level.width)
            LevelBand.shrink(previous, row, level.level.width, level.channels, half)
            try push(half, into: i + 1, levels, writer)
        }
    }

    /// One row from the source's layout (3: RGB, 4: straight RGBA) to the
    /// pyramid's (3: RGB on the background, 4: premultiplied RGBA); RGB to
    /// RGB is not converted at all.
    private func convert(
        _ src: UnsafePointer<UInt8>, _ sc: Int, _ dst: UnsafeMutablePointer<UInt8>, _ dc: Int, _ width: Int,
        _ bg: (UInt32, UInt32, UInt32)
    ) {
        if sc == 3 {
            for x in 0..<width {
                dst[x * 4] = src[x * 3]; dst[x * 4 + 1] = src[x * 3 + 1]; dst[x * 4 + 2] = src[x * 3 + 2]; dst[x * 4 + 3] = 255
            }
        } else if dc == 3 {
            for x in 0..<width {
                let a = UInt32(src[x * 4 + 3]), ia = 255 - a
                dst[x * 3] = UInt8((UInt32(src[x * 4]) * a + bg.0 * ia + 127) / 255)
                dst[x * 3 + 1] = UInt8((UInt32(src[x * 4 + 1]) * a + bg.1 * ia + 127) / 255)
                dst[x * 3 + 2] = UInt8((UInt32(src[x * 4 + 2]) * a + bg.2 * ia + 127) / 255)
            }
        } else {
            for x in 0..<width {
                let a = UInt32(src[x * 4 + 3])
                dst[x * 4] = UInt8((UInt32(src[x * 4]) * a + 127) / 255)
                dst[x * 4 + 1] = UInt8((UInt32(src[x * 4 + 1]) * a + 127) / 255)
                dst[x * 4 + 2] = UInt8((UInt32(src[x * 4 + 2]) * a + 127) / 255)
                dst[x * 4 + 3] = UInt8(a)
            }
        }
    }
}

/// One level's band of rows being filled, the row waiting for its partner,
/// and a scratch row for what the level above shrinks into it.
private final class LevelBand {
    let index: Int
    let level: TilePyramid.Level
    let tileSize: Int
    let channels: Int
    let stride: Int
    var band: UnsafeMutablePointer<UInt8>
    var rows = 0
    var bandRow = 0
    var pending: UnsafeMutablePointer<UInt8>
    var hasPending = false
    let half: UnsafeMutablePointer<UInt8>

    init(index: Int, level: TilePyramid.Level, tileSize: Int, channels: Int) {
        self.index = index
        self.level = level
        self.tileSize = tileSize
        self.channels = channels
        stride = level.width * channels
        band = .allocate(capacity: stride * min(tileSize, level.height))
        pending = .allocate(capacity: stride)
        half = .allocate(capacity: stride)
    }

    deinit {
        band.deallocate()
        pending.deallocate()
        half.deallocate()
    }

    /// Where the level above writes a shrunk row for this one.
    func scratch(_ aboveWidth: Int) -> UnsafeMutablePointer<UInt8> { half }

    func append(_ row: UnsafePointer<UInt8>, _ writer: TileWriter) throws(TilePyramidError) {
        (band + rows * stride).update(from: row, count: stride)
        rows += 1
        if rows == tileSize { try flush(writer) }
    }

    /// The row before, when `row` completes a pair; else keeps `row`.
    func pairWith(_ row: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        if hasPending {
            hasPending = false
            return UnsafePointer(pending)
        }
        pending.update(from: row, count: stride)
        hasPending = true
        return nil
    }

    func takePendingRow() -> UnsafePointer<UInt8>? {
        guard hasPending else { return nil }
        hasPending = false
        return UnsafePointer(pending)
    }

    /// Cuts the band into tiles and hands them to the writer.
    func flush(_ writer: TileWriter) throws(TilePyramidError) {
        guard rows > 0 else { return }
        for column in 0..<level.columns {
            let x0 = column * tileSize, w = min(tileSize, level.width - x0)
            var tile = [UInt8](repeating: 0, count: w * rows * channels)
            tile.withUnsafeMutableBufferPointer { t in
                for r in 0..<rows {
                    (t.baseAddress! + r * w * channels).update(from: band + r * stride + x0 * channels, count: w * channels)
                }
            }
            try writer.write(tile, width: w, height: rows, channels: channels, level: index, column: column, row: bandRow)
        }
        rows = 0
        bandRow += 1
    }

    /// Averages 2 × 2 pixels of rows `a` and `b` (or of `a` alone, at an odd
    /// bottom edge) into a row of half the width, rounded up.
    static func shrink(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, _ width: Int, _ c: Int, _ out: UnsafeMutablePointer<UInt8>) {
        let b = b ?? a
        let pairs = width / 2
        for x in 0..<pairs {
            let i = x * 2 * c, o = x * c
            for k in 0..<c {
                out[o + k] = UInt8((UInt16(a[i + k]) + UInt16(a[i + c + k]) + UInt16(b[i + k]) + UInt16(b[i + c + k]) + 2) >> 2)
            }
        }
        if width % 2 == 1 {
            let i = (width - 1) * c, o = pairs * c
            for k in 0..<c { out[o + k] = UInt8((UInt16(a[i + k]) + UInt16(b[i + k]) + 1) >> 1) }
        }
    }
}

/// Encodes and writes tiles on the pool, a bounded number at a time; the
/// first error stops everything after it.
private final class TileWriter: Sendable {
    let dir: String
    let pyramid: TilePyramid
    let quality: Int
    let pool: QueuePool
    let slots: DispatchSemaphore
    let group = DispatchGroup()
    let failure = Locked<TilePyramidError?>(nil)
    let count = Atomic<Int>(0)

    init(dir: String, pyramid: TilePyramid, quality: Int, pool: QueuePool) {
        self.dir = dir
        self.pyramid = pyramid
        self.quality = quality
        self.pool = pool
        slots = DispatchSemaphore(value: pool.queuesPerPriority * 2 + 2)
    }

    var written: Int { count.load(ordering: .relaxed) }

    func check() throws(TilePyramidError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    func write(_ pixels: [UInt8], width: Int, height: Int, channels: Int, level: Int, column: Int, row: Int) throws(TilePyramidError) {
        try check()
        slots.wait()
        group.enter()
        let path = "\(dir)/\(pyramid.tilePath(level: level, column: column, row: row))"
        pool.async(.utility) { [self] in
            defer {
                slots.signal()
                group.leave()
            }
            guard failure.withLock({ $0 == nil }) else { return }
            do throws(TilePyramidError) {
                let bytes = try encode(pixels, width, height, channels, path)
                try store(bytes, path)
                count.wrappingAdd(1, ordering: .relaxed)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
    }

    func finish() { group.wait() }

    private func encode(_ pixels: [UInt8], _ w: Int, _ h: Int, _ c: Int, _ path: String) throws(TilePyramidError) -> [UInt8] {
        if c == 3 {
            var out: UnsafeMutablePointer<UInt8>? = nil
            var size = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = pixels.withUnsafeBufferPointer { p in
                message.withUnsafeMutableBufferPointer { m in
                    strata_jpeg_encode(p.baseAddress, UInt32(w), UInt32(h), w * 3, Int32(quality), &out, &size, m.baseAddress, m.count)
                }
            }
            guard status == 0, let out else {
                throw .output(path: path, reason: "JPEG encoding failed: " + message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
            defer { free(out) }
            return Array(UnsafeBufferPointer(start: out, count: size))
        }
        do {
            return try Image(width: w, height: h, premultipliedPixels: pixels).pngData(compressionLevel: 6)
        } catch {
            throw .output(path: path, reason: "PNG encoding failed: \(error)")
        }
    }

    private func store(_ bytes: [UInt8], _ path: String) throws(TilePyramidError) {
        guard let f = fopen(path, "wb") else {
            throw .output(path: path, reason: "cannot create the tile: \(String(cString: strerror(errno)))")
        }
        let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        let closed = fclose(f)
        guard n == bytes.count, closed == 0 else {
            throw .output(path: path, reason: "cannot write the tile: \(String(cString: strerror(errno)))")
        }
    }
}

/// The rows of a JPEG or PNG file, read a band at a time where the format
/// allows (baseline JPEG, non-interlaced PNG), else decoded whole.
private final class RowSource {
    let path: String
    let width: Int
    let height: Int
    /// 3 (RGB) or 4 (straight RGBA).
    let channels: Int
    private var jpeg: OpaquePointer?
    private var png: OpaquePointer?
    private var whole: Image?
    private var nextRow = 0

    /// The bands cutting holds: a band of tile rows at each level (they halve
    /// down the levels) and the RGB(A) rows read into the first, about three
    /// bands' worth.
    static func bandBytes(width: Int, tileSize: Int) -> UInt64 {
        UInt64(width) * 4 * UInt64(tileSize) * 3
    }

    init(path: String, maximumMemory: UInt64, tileSize: Int) throws(TilePyramidError) {
        self.path = path
        var message = [CChar](repeating: 0, count: 512)
        func reason() -> String { message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
        guard let f = fopen(path, "rb") else {
            throw .input(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        var signature = [UInt8](repeating: 0, count: 8)
        let got = fread(&signature, 1, 8, f)
        fclose(f)
        var w: UInt32 = 0, h: UInt32 = 0
        if got >= 3 && signature[0] == 0xFF && signature[1] == 0xD8 && signature[2] == 0xFF {
            let reader = message.withUnsafeMutableBufferPointer { m in
                strata_jpeg_reader_open(path, maximumMemory, &w, &h, m.baseAddress, m.count)
            }
            guard let reader else { throw .input(path: path, reason: "JPEG: " + reason()) }
            jpeg = reader
            channels = 3
        } else if got == 8 && signature == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            var interlaced: Int32 = 0
            let reader = message.withUnsafeMutableBufferPointer { m in
                strata_png_reader_open(path, UInt32(BitmapLimits.maximumDimension), &w, &h, &interlaced, m.baseAddress, m.count)
            }
            guard let reader else { throw .input(path: path, reason: "PNG: " + reason()) }
            channels = 4
            if interlaced != 0 {
                strata_png_reader_close(reader)
                // Interlaced rows only come out all together: decoded whole,
                // within the bitmap limits and, with the bands, the memory allowed.
                guard UInt64(w) * UInt64(h) * 4 + RowSource.bandBytes(width: Int(w), tileSize: tileSize) <= maximumMemory else {
                    throw .input(
                        path: path,
                        reason:
                            "an interlaced PNG of \(w) × \(h) must be decoded whole, which needs more than the \(maximumMemory >> 20) MB allowed; save it without interlacing to cut it a band at a time"
                    )
                }
                do {
                    whole = try Image(contentsOfFile: path, maximumPixelCount: Int(w) * Int(h))
                } catch {
                    throw .input(path: path, reason: "\(error)")
                }
            } else {
                png = reader
            }
        } else {
            throw .input(path: path, reason: got == 0 ? "the file is empty" : "neither a JPEG nor a PNG (unknown signature)")
        }
        width = Int(w)
        height = Int(h)
        guard width > 0, height > 0 else { throw .input(path: path, reason: "the image is empty") }
    }

    /// Reads up to `rows` rows (stride width × channels); returns how many.
    func read(into buffer: UnsafeMutablePointer<UInt8>, rows: Int) throws(TilePyramidError) -> Int {
        var message = [CChar](repeating: 0, count: 512)
        let stride = width * channels
        let n: Int32
        if let jpeg {
            n = message.withUnsafeMutableBufferPointer { strata_jpeg_reader_read(jpeg, buffer, stride, UInt32(rows), $0.baseAddress, $0.count) }
        } else if let png {
            n = message.withUnsafeMutableBufferPointer { strata_png_reader_read(png, buffer, stride, UInt32(rows), $0.baseAddress, $0.count) }
        } else if let whole {
            // Premultiplied in the image; straight here.
            let count = min(rows, height - nextRow)
            whole.pixels.withUnsafeBufferPointer { src in
                for r in 0..<count {
                    let s = src.baseAddress! + (nextRow + r) * whole.bytesPerRow, d = buffer + r * stride
                    for x in 0..<width {
                        let a = UInt32(s[x * 4 + 3])
                        for k in 0..<3 { d[x * 4 + k] = a == 0 ? 0 : UInt8(min(255, (UInt32(s[x * 4 + k]) * 255 + a / 2) / a)) }
                        d[x * 4 + 3] = UInt8(a)
                    }
                }
            }
            nextRow += count
            return count
        } else {
            return 0
        }
        guard n >= 0 else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .input(path: path, reason: (jpeg != nil ? "JPEG data damaged or cut short: " : "PNG data damaged or cut short: ") + reason)
        }
        return Int(n)
    }

    func close() {
        if let jpeg { strata_jpeg_reader_close(jpeg) }
        if let png { strata_png_reader_close(png) }
        jpeg = nil
        png = nil
    }
}
