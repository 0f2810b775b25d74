import StrataGraphics

/// A content stream's bytes, written straight from numbers and paths (no
/// strings in between: a page of ten thousand shapes writes a few hundred
/// thousand numbers) into storage of its own, grown by doubling.
final class PDFContent {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// Whether the storage goes back to `PDFBuffers` for the next document.
    private let kept: Bool

    /// An empty stream; `kept` takes its storage from the buffers kept for
    /// the next document and gives it back (`PDFBuffers`), for a page's
    /// main stream.
    init(kept: Bool = false) {
        self.kept = kept
        if kept, let (storage, size) = PDFBuffers.takeStorage() {
            base = storage
            capacity = size
        } else {
            capacity = kept ? 1 << 16 : 1 << 10
            base = .allocate(capacity: capacity)
        }
    }

    deinit {
        if kept {
            PDFBuffers.giveStorage(base, capacity: capacity)
        } else {
            base.deallocate()
        }
    }

    /// The bytes written, as an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Runs `body` with the bytes written (valid only inside it).
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Bytes `from ..< count`, as an array.
    func bytes(from start: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + min(start, count), count: count - min(start, count)))
    }

    /// Room for `n` more bytes.
    @inline(__always)
    private func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        let size = max(needed, 2 * capacity)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        grown.update(from: base, count: count)
        // The smaller storage is freed, not kept: kept, it would take the
        // place of the grown one when the stream ends.
        base.deallocate()
        base = grown
        capacity = size
    }

    /// Appends `text` as it is.
    @inline(__always)
    func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        (base + count).update(from: text.utf8Start, count: n)
        count += n
    }

    /// Appends `text` as it is.
    func append(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    func append(contentsOf other: [UInt8]) {
        other.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    func append(contentsOf other: UnsafeBufferPointer<UInt8>) {
        guard let source = other.baseAddress else { return }
        reserve(other.count)
        (base + count).update(from: source, count: other.count)
        count += other.count
    }

    /// Appends `v` to a thousandth (of a point: a third of a micrometre;
    /// of a colour channel: finer than its 8 bits), trailing zeros
    /// dropped, held to ±32,767,000 (NaN and infinities as 0), then a
    /// space, as Cairo's PDF surface writes its numbers.
    @inline(__always)
    func number(_ v: Double) {
        // At most a sign, 8 whole digits, a point, 3 decimals and a space.
        reserve(16)
        count += Self.format(v, decimals: 3, into: UnsafeMutableRawBufferPointer(start: base + count, count: 16))
    }

    /// Appends `v` as `number(_:)` does, without the space (an attribute's value).
    func value(_ v: Double) {
        reserve(16)
        count += Self.format(v, decimals: 3, into: UnsafeMutableRawBufferPointer(start: base + count, count: 16)) - 1
    }

    /// Writes `v` into `b` (16 bytes at least) with up to `decimals`
    /// decimals (3 or 4), trailing zeros dropped, held to ±32,767,000 (NaN
    /// and infinities as 0), then a space; returns the bytes written.
    @inline(__always)
    static func format(_ v: Double, decimals: Int, into b: UnsafeMutableRawBufferPointer) -> Int {
        let unit: UInt64 = decimals == 4 ? 10_000 : 1000
        let held = v.isFinite ? min(32_767_000, max(-32_767_000, v)) : 0
        // Rounded half away from zero, as `rounded()` does, without a call.
        let magnitude = UInt64(abs(held) * Double(unit) + 0.5)
        if magnitude == 0 {
            b[0] = 0x30
            b[1] = 0x20
            return 2
        }
        var n = 0
        if held < 0 {
            b[0] = 0x2D
            n = 1
        }
        var whole = magnitude / unit
        var fraction = magnitude % unit
        // The whole part's digits, counted first, then written backwards.
        var digits = 1
        var probe = whole
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var i = n + digits
        n = i
        repeat {
            i -= 1
            b[i] = UInt8(truncatingIfNeeded: whole % 10) &+ 0x30
            whole /= 10
        } while whole > 0
        if fraction != 0 {
            b[n] = 0x2E
            n += 1
            var place = unit / 10
            while fraction != 0 {
                let digit = fraction / place
                b[n] = UInt8(truncatingIfNeeded: digit) &+ 0x30
                n += 1
                fraction -= digit * place
                place /= 10
            }
        }
        b[n] = 0x20
        return n + 1
    }

    /// Appends `p` under `t`: `x y `.
    @inline(__always)
    func point(_ p: Point, _ t: Transform) {
        number(t.a * p.x + t.c * p.y + t.tx)
        number(t.b * p.x + t.d * p.y + t.ty)
    }

    /// Appends an `r g b` colour and its operator (`rg` or `RG`).
    func color(_ c: Color, stroke: Bool) {
        number(c.red)
        number(c.green)
        number(c.blue)
        append(stroke ? "RG\n" : "rg\n")
    }

    /// Appends `t`'s six numbers and `cm`.
    func matrix(_ t: Transform) {
        number(t.a)
        number(t.b)
        number(t.c)
        number(t.d)
        number(t.tx)
        number(t.ty)
        append("cm\n")
    }

    /// Appends `n` in decimal (no space).
    func integer(_ n: Int) {
        append(String(n))
    }

    /// Appends `path`'s segments under `t`: `m`, `l`, `c` (a quadratic
    /// curve raised to a cubic) and `h`; a rectangle whose sides stay
    /// upright under `t` is one `re`.
    func path(_ path: Path, _ t: Transform) {
        if t.b == 0, t.c == 0, let r = Self.rectangle(path) {
            let x0 = t.a * r.minX + t.tx, y0 = t.d * r.minY + t.ty
            let x1 = t.a * r.maxX + t.tx, y1 = t.d * r.maxY + t.ty
            number(x0)
            number(y0)
            number(x1 - x0)
            number(y1 - y0)
            append("re\n")
            return
        }
        var current = Point(x: 0, y: 0)
        var start = current
        path.forEach { element in
            switch element {
            case .move(let to):
                point(to, t)
                append("m\n")
                current = to
                start = to
            case .line(let to):
                point(to, t)
                append("l\n")
                current = to
            case .quadCurve(let to, let control):
                let c1 = Point(x: current.x + 2 / 3 * (control.x - current.x), y: current.y + 2 / 3 * (control.y - current.y))
                let c2 = Point(x: to.x + 2 / 3 * (control.x - to.x), y: to.y + 2 / 3 * (control.y - to.y))
                point(c1, t)
                point(c2, t)
                point(to, t)
                append("c\n")
                current = to
            case .curve(let to, let control1, let control2):
                point(control1, t)
                point(control2, t)
                point(to, t)
                append("c\n")
                current = to
            case .closeSubpath:
                append("h\n")
                current = start
            }
        }
    }

    /// The ellipse `path` is when it is exactly what `Path(ellipseIn:)`
    /// makes (a move to the right end, four quarter curves, a close):
    /// its centre and radii, both radii positive; else nil.
    static func ellipse(_ path: Path) -> (center: Point, rx: Double, ry: Double)? {
        guard path.elementCount == 6 else { return nil }
        var start = Point.zero
        var curves: [(to: Point, c1: Point, c2: Point)] = []
        curves.reserveCapacity(4)
        var fits = true, index = 0
        path.forEach { element in
            switch (index, element) {
            case (0, .move(let p)): start = p
            case (1...4, .curve(let to, let c1, let c2)): curves.append((to, c1, c2))
            case (5, .closeSubpath): break
            default: fits = false
            }
            index += 1
        }
        guard fits, curves.count == 4 else { return nil }
        let cx = curves[0].to.x, cy = start.y
        let rx = start.x - cx, ry = curves[0].to.y - cy
        guard rx > 0, ry > 0, rx.isFinite, ry.isFinite, cx.isFinite, cy.isFinite else { return nil }
        // Path's quarter-circle constant, 4/3·(√2 − 1).
        let kappa = 0.5522847498307936
        let kx = rx * kappa, ky = ry * kappa
        let expected: [(Point, Point, Point)] = [
            (Point(x: cx, y: cy + ry), Point(x: cx + rx, y: cy + ky), Point(x: cx + kx, y: cy + ry)),
            (Point(x: cx - rx, y: cy), Point(x: cx - kx, y: cy + ry), Point(x: cx - rx, y: cy + ky)),
            (Point(x: cx, y: cy - ry), Point(x: cx - rx, y: cy - ky), Point(x: cx - kx, y: cy - ry)),
            (Point(x: cx + rx, y: cy), Point(x: cx + kx, y: cy - ry), Point(x: cx + rx, y: cy - ky)),
        ]
        // Equal but for the rounding of the centre and radii found here.
        let tolerance = 1e-9 * (abs(cx) + abs(cy) + rx + ry)
        func near(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance }
        for (c, e) in zip(curves, expected) where !(near(c.to, e.0) && near(c.c1, e.1) && near(c.c2, e.2)) { return nil }
        return (Point(x: cx, y: cy), rx, ry)
    }

    /// The rectangle `path` is when it is one closed subpath of four
    /// upright sides (as `Path(rect:)` makes it), else nil.
    static func rectangle(_ path: Path) -> Rect? {
        var points: (Point, Point, Point, Point) = (.zero, .zero, .zero, .zero)
        var count = 0, closed = false, fits = true
        path.forEach { element in
            guard fits else { return }
            switch element {
            case .move(let p) where count == 0:
                points.0 = p
                count = 1
            case .line(let p) where count >= 1 && count < 4 && !closed:
                switch count {
                case 1: points.1 = p
                case 2: points.2 = p
                default: points.3 = p
                }
                count += 1
            case .line(let p) where count == 4 && !closed && p == points.0:
                break
            case .closeSubpath where count == 4 && !closed:
                closed = true
            default:
                fits = false
            }
        }
        guard fits, closed, count == 4 else { return nil }
        let (a, b, c, d) = points
        let upright =
            (a.y == b.y && b.x == c.x && c.y == d.y && d.x == a.x) || (a.x == b.x && b.y == c.y && c.x == d.x && d.y == a.y)
        guard upright else { return nil }
        let x0 = min(a.x, c.x), y0 = min(a.y, c.y)
        return Rect(x: x0, y: y0, width: max(a.x, c.x) - x0, height: max(a.y, c.y) - y0)
    }
}
