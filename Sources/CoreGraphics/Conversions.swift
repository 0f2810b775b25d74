package import StrataGraphics

// Between Foundation's CG geometry and Strata's: the same numbers, named
// the other way.

extension CGPoint {
    @inline(__always) package var strata: Point { Point(x: Double(x), y: Double(y)) }
    package init(_ p: Point) { self.init(x: p.x, y: p.y) }
}

extension CGSize {
    package var strata: Size { Size(width: Double(width), height: Double(height)) }
}

extension CGRect {
    /// Standardized (a negative width or height turned round); the null
    /// rectangle becomes an empty one at the origin.
    @inline(__always) package var strata: Rect {
        // Read field by field: Foundation's computed properties are calls
        // into another module, and this runs for every rectangle drawn.
        let x = Double(origin.x), y = Double(origin.y), w = Double(size.width), h = Double(size.height)
        guard x != .infinity, y != .infinity else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: w < 0 ? x + w : x, y: h < 0 ? y + h : y, width: Swift.abs(w), height: Swift.abs(h))
    }
    package init(_ r: Rect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
}

extension CGAffineTransform {
    package var strata: Transform { Transform(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty)) }
    package init(_ t: Transform) { self.init(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty) }
}
