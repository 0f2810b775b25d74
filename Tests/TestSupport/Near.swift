import StrataGraphics

/// Whether `a` and `b` are within `tolerance` of each other.
public func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// Whether both coordinates are within `tolerance`.
public func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    near(a.x, b.x, tolerance) && near(a.y, b.y, tolerance)
}

/// Whether every channel (premultiplied, alpha included) is within `tolerance` levels.
public func near(_ p: Pixel, _ q: Pixel, _ tolerance: Int) -> Bool {
    abs(Int(p.r) - Int(q.r)) <= tolerance && abs(Int(p.g) - Int(q.g)) <= tolerance
        && abs(Int(p.b) - Int(q.b)) <= tolerance && abs(Int(p.a) - Int(q.a)) <= tolerance
}
