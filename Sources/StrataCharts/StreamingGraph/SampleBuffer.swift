internal import CDecimate

/// A bounded ring of samples that counts every sample ever appended, so that
/// code can index samples as if none were ever dropped.
///
/// Samples are `Double`s (the type charts are given; a `Float` buffer would
/// halve the memory but cannot tell 1,000,000.1 from 1,000,000.2, and the
/// graph's 10,000,000-sample window fits its memory bar in `Double`s). NaN is
/// a gap: the line breaks there.
///
/// Storage is a ring of fixed chunks of 4,096 samples, allocated the first
/// time they are needed and then reused: an append is O(1) and never moves a
/// sample. `snapshot(_:)` gives drawing threads an immutable, `Sendable` view
/// of any range that copies no samples: it shares the chunks it covers. A
/// chunk a snapshot still holds is never written over; when the ring comes
/// round to it, a fresh chunk takes its place (`chunksAllocated` counts them).
///
/// As each run of 64 samples and each chunk fills, its minimum, maximum and
/// gaps are summarised: the extremes of any range, and M4 over any number of
/// columns, cost O(range / 4,096 + columns · 64) instead of O(range)
/// (`SampleSnapshot.m4`).
///
/// A buffer belongs to one thread at a time (the graph's: the main actor);
/// only its snapshots cross threads.
public final class SampleBuffer {
    /// The most samples kept; older ones read as NaN.
    public let capacity: Int
    /// Every sample ever appended: the index the next sample gets.
    public private(set) var count = 0
    /// Chunks allocated so far (the ring's, and any that replaced a chunk a
    /// snapshot still held).
    public private(set) var chunksAllocated = 0

    /// The chunks, slot `k % ringCount` holding chunk `k`. Slots are added as
    /// the first round fills them, so a huge capacity costs nothing until
    /// samples arrive (room for 65,536 slots, 268 million samples, is
    /// reserved at once: the ring's array never moves below that).
    private var ring: [SampleChunk?] = []
    private let ringCount: Int

    /// A buffer keeping the newest `capacity` samples. A capacity below 1
    /// counts as 1; one above 2⁴⁰ (eight terabytes of samples) counts as 2⁴⁰.
    public init(capacity: Int) {
        let c = min(1 << 40, max(1, capacity))
        self.capacity = c
        ringCount = (c + SampleChunk.size - 1) / SampleChunk.size + 1
        ring.reserveCapacity(min(ringCount, 1 << 16))
    }

    /// The oldest index still kept.
    public var startIndex: Int { Swift.max(0, count - capacity) }

    /// The indices of the samples kept.
    public var indices: Range<Int> { startIndex..<count }

    /// The sample at global index `index`; NaN for an index never appended
    /// or already dropped.
    public subscript(index: Int) -> Double {
        guard index >= startIndex, index < count else { return .nan }
        return ring[(index / SampleChunk.size) % ringCount]!.values[index % SampleChunk.size]
    }

    /// Appends one sample (NaN for a gap; infinities are kept, and a chart
    /// draws them at its edge).
    public func append(_ value: Double) {
        let offset = count % SampleChunk.size
        let chunk: SampleChunk
        if offset == 0 {
            chunk = takeChunk(number: count / SampleChunk.size)
        } else {
            chunk = ring[(count / SampleChunk.size) % ringCount]!
        }
        chunk.values[offset] = value
        let end = offset + 1
        if end % SampleChunk.blockSize == 0 {
            chunk.summarizeBlock(end / SampleChunk.blockSize - 1)
            if end == SampleChunk.size { chunk.summarizeChunk() }
        }
        count += 1
    }

    /// Appends samples in order.
    public func append(contentsOf values: some Sequence<Double>) {
        let done: Void? = values.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done == nil {
            for v in values { append(v) }
        }
    }

    /// Appends samples in order, copied a chunk at a time, each run of 64
    /// summarised as it fills: for appends of many samples at once (a
    /// sensor's block, a frame's worth of a fast stream), several times
    /// faster than one at a time.
    public func append(contentsOf values: UnsafeBufferPointer<Double>) {
        append(values, replacingNonFinite: false)
    }

    /// Appends `values`; with `replacingNonFinite`, each infinity is kept as
    /// NaN (a gap), as a streaming graph keeps them.
    func append(_ values: UnsafeBufferPointer<Double>, replacingNonFinite: Bool) {
        guard let source = values.baseAddress else { return }
        var i = 0
        while i < values.count {
            let offset = count % SampleChunk.size
            let chunk = offset == 0 ? takeChunk(number: count / SampleChunk.size) : ring[(count / SampleChunk.size) % ringCount]!
            let take = Swift.min(values.count - i, SampleChunk.size - offset)
            let end = offset + take
            let size = SampleChunk.blockSize
            // Whole blocks copied and summarised in one pass; the samples
            // before and after them copied, and the block they complete
            // summarised after.
            let wholeFrom = (offset + size - 1) / size, wholeTo = end / size
            var copied = offset
            if wholeTo > wholeFrom {
                let head = wholeFrom * size - offset
                copy(source + i, to: chunk.values + offset, count: head, replacingNonFinite: replacingNonFinite)
                if head > 0 { chunk.summarizeBlocks((wholeFrom - 1)..<wholeFrom) }
                let b = wholeFrom
                strata_copy_blocks(
                    source + i + head, chunk.values + b * size, wholeTo - wholeFrom, replacingNonFinite ? 1 : 0,
                    values.count >= Self.streamingAppend ? 1 : 0, chunk.blockMin + b, chunk.blockMax + b, chunk.blockMinAt + b,
                    chunk.blockMaxAt + b, chunk.blockGaps + b, chunk.blockFirst + b, chunk.blockLast + b, b * size)
                copied = wholeTo * size
            }
            copy(source + i + (copied - offset), to: chunk.values + copied, count: end - copied, replacingNonFinite: replacingNonFinite)
            if wholeTo <= wholeFrom, end / size > offset / size { chunk.summarizeBlocks((offset / size)..<(end / size)) }
            if end == SampleChunk.size { chunk.summarizeChunk() }
            count += take
            i += take
        }
    }

    /// Appends of at least this many samples are written past the cache:
    /// they will not be read soon (a frame of a fast stream).
    static let streamingAppend = 1 << 13

    private func copy(_ source: UnsafePointer<Double>, to target: UnsafeMutablePointer<Double>, count: Int, replacingNonFinite: Bool) {
        guard count > 0 else { return }
        if replacingNonFinite {
            strata_copy_finite(source, target, count)
        } else {
            target.update(from: source, count: count)
        }
    }

    /// Empties the buffer; the count starts again at 0.
    public func removeAll() {
        count = 0
    }

    /// The ring slot for chunk `number`, ready to be written: the chunk there
    /// unless a snapshot still holds it.
    private func takeChunk(number: Int) -> SampleChunk {
        let slot = number % ringCount
        if slot == ring.count { ring.append(nil) }
        if ring[slot] == nil || !isKnownUniquelyReferenced(&ring[slot]!) {
            ring[slot] = SampleChunk()
            chunksAllocated += 1
        }
        let chunk = ring[slot]!
        chunk.start = number * SampleChunk.size
        return chunk
    }

    /// An immutable view of the samples of `range` (clamped to the kept
    /// ones), for any thread. No sample is copied.
    public func snapshot(_ range: Range<Int>) -> SampleSnapshot {
        let lo = Swift.max(range.lowerBound, startIndex), hi = Swift.min(range.upperBound, count)
        guard lo < hi else { return SampleSnapshot(indices: lo..<lo, chunks: []) }
        let first = lo / SampleChunk.size, last = (hi - 1) / SampleChunk.size
        var chunks = ContiguousArray<SampleChunk>()
        chunks.reserveCapacity(last - first + 1)
        for k in first...last { chunks.append(ring[k % ringCount]!) }
        return SampleSnapshot(indices: lo..<hi, chunks: chunks)
    }

    /// The smallest and largest number among the kept samples of `range`
    /// (NaN skipped), or nil when there is none.
    public func extremes(in range: Range<Int>) -> (min: Double, max: Double)? {
        // Read in place, through the summaries: no snapshot to make.
        let r = range.clamped(to: indices)
        guard !r.isEmpty else { return nil }
        var scan = ColumnScan()
        SampleSnapshot.scan(r, into: &scan) { ring[$0 % ringCount].unsafelyUnwrapped }
        scan.endColumn()
        return scan.seenNumber ? (scan.overallMin, scan.overallMax) : nil
    }
}

/// Samples `indices` of a `SampleBuffer`, as they were when the snapshot was
/// taken, readable from any thread.
public struct SampleSnapshot: Sendable {
    /// The indices the snapshot holds.
    public let indices: Range<Int>
    let chunks: ContiguousArray<SampleChunk>

    /// The sample at global `index`; NaN outside the snapshot.
    public subscript(index: Int) -> Double {
        guard indices.contains(index) else { return .nan }
        return chunks[index / SampleChunk.size - chunks[0].start / SampleChunk.size].values[index % SampleChunk.size]
    }

    /// The smallest and largest number in `range` (within the snapshot), NaN
    /// skipped; nil when there is none.
    public func extremes(in range: Range<Int>) -> (min: Double, max: Double)? {
        var scan = ColumnScan()
        scanColumn(range.clamped(to: indices), into: &scan)
        scan.endColumn()
        return scan.seenNumber ? (scan.overallMin, scan.overallMax) : nil
    }
}

/// One chunk of a sample buffer: 4,096 samples and their summaries.
///
/// Safety of sharing: a chunk is written only by its buffer's owner, and only
/// at offsets at or past the buffer's count, which no snapshot covers yet; a
/// block's or the chunk's summary is written once, when its last sample is
/// appended, again before any snapshot covers it. Snapshots read only below
/// the count they were taken at, and reach their drawing thread through a
/// queue, which orders those writes before the reads. A chunk is taken back
/// for new samples only when the ring holds the one reference to it
/// (`isKnownUniquelyReferenced`), so no snapshot ever sees it rewritten.
final class SampleChunk: @unchecked Sendable {
    static let size = 4096
    static let blockSize = 64
    static let blocks = size / blockSize

    /// The global index of `values[0]`.
    var start = 0
    /// Aligned to a cache line: a big append's stores can bypass the cache.
    let values = UnsafeMutableRawPointer.allocate(byteCount: SampleChunk.size * 8, alignment: 64).bindMemory(
        to: Double.self, capacity: SampleChunk.size)
    /// Per block of 64: the smallest and largest number, the offsets (in the
    /// chunk) of their first occurrences, and how many samples are NaN.
    let blockMin = UnsafeMutablePointer<Double>.allocate(capacity: SampleChunk.blocks)
    let blockMax = UnsafeMutablePointer<Double>.allocate(capacity: SampleChunk.blocks)
    let blockMinAt = UnsafeMutablePointer<UInt16>.allocate(capacity: SampleChunk.blocks)
    let blockMaxAt = UnsafeMutablePointer<UInt16>.allocate(capacity: SampleChunk.blocks)
    let blockGaps = UnsafeMutablePointer<UInt8>.allocate(capacity: SampleChunk.blocks)
    /// Per block, its first and last sample (read where it has no gap): M4
    /// reads them beside the extremes instead of a line of samples each.
    let blockFirst = UnsafeMutablePointer<Double>.allocate(capacity: SampleChunk.blocks)
    let blockLast = UnsafeMutablePointer<Double>.allocate(capacity: SampleChunk.blocks)
    /// The same for the whole chunk.
    var chunkMin = 0.0, chunkMax = 0.0
    var chunkMinAt = 0, chunkMaxAt = 0, chunkGaps = 0
    var chunkFirst = 0.0, chunkLast = 0.0

    deinit {
        values.deallocate()
        blockMin.deallocate()
        blockMax.deallocate()
        blockMinAt.deallocate()
        blockMaxAt.deallocate()
        blockGaps.deallocate()
        blockFirst.deallocate()
        blockLast.deallocate()
    }

    func summarizeBlock(_ b: Int) { summarizeBlocks(b..<(b + 1)) }

    /// Summarises blocks `blocks` (vectorised where the processor can).
    func summarizeBlocks(_ blocks: Range<Int>) {
        strata_summarize_blocks(
            values, blocks.lowerBound, blocks.count, Self.blockSize, blockMin, blockMax, blockMinAt, blockMaxAt, blockGaps, blockFirst,
            blockLast)
    }

    func summarizeChunk() {
        var lo = Double.infinity, hi = -Double.infinity, loAt = -1, hiAt = -1, gaps = 0
        for b in 0..<Self.blocks {
            gaps += Int(blockGaps[b])
            guard blockGaps[b] < Self.blockSize else { continue }
            if loAt < 0 || blockMin[b] < lo { lo = blockMin[b]; loAt = Int(blockMinAt[b]) }
            if hiAt < 0 || blockMax[b] > hi { hi = blockMax[b]; hiAt = Int(blockMaxAt[b]) }
        }
        chunkMin = lo
        chunkMax = hi
        chunkMinAt = max(0, loAt)
        chunkMaxAt = max(0, hiAt)
        chunkGaps = gaps
        chunkFirst = blockFirst[0]
        chunkLast = blockLast[Self.blocks - 1]
    }
}
