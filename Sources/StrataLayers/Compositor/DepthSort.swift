import StrataGraphics

extension FrameNode {
    /// Sets `depth` and `corners3D`, for a layer in a transform layer's 3D
    /// space, which `m3` maps it to.
    func placeInDepthContext(_ m3: Transform3D) {
        let b = state.bounds
        let c = m3.apply(x: b.midX, y: b.midY)
        depth = c.w > 1e-12 ? c.z / c.w : c.z
        var corners: [SIMD3<Double>] = []
        for q in b.corners {
            let r = m3.apply(x: q.x, y: q.y)
            guard r.w > 1e-12 else { break }
            corners.append(SIMD3(r.x / r.w, r.y / r.w, r.z / r.w))
        }
        if corners.count == 4 && corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) {
            corners3D = corners
        }
    }

    /// Members of a 3D context back to front. They start in order of their
    /// centres' depth; then, for each pair whose boxes overlap, a plane test
    /// decides which is behind (one lies wholly behind the other's plane, or
    /// the other wholly in front of its), as in Newell's painter's algorithm,
    /// and the order is the topological one, nearest-centre-last where the
    /// tests leave a choice (or find a cycle). Centre depth alone fails on
    /// cubes: a side face and the top face have centres at the same depth,
    /// and whichever comes later in the array would show through its edge.
    /// Above 64 members only the centre order is used (the pairwise tests
    /// grow with the square of the count).
    static func depthSorted(_ members: [FrameNode]) -> [FrameNode] {
        let byCentre = members.indices.sorted {
            members[$0].depth != members[$1].depth ? members[$0].depth < members[$1].depth : $0 < $1
        }.map { members[$0] }
        let n = byCentre.count
        guard n > 1, n <= 64 else { return byCentre }
        // before[i] holds the members that must be drawn before member i.
        var before = [[Int]](repeating: [], count: n)
        for i in 0..<n {
            for j in (i + 1)..<n where byCentre[i].box.intersects(byCentre[j].box) {
                switch planeOrder(byCentre[i], byCentre[j]) {
                case .some(true): before[j].append(i)
                case .some(false): before[i].append(j)
                case nil: break
                }
            }
        }
        var remaining = [Int](repeating: 0, count: n)
        var dependents = [[Int]](repeating: [], count: n)
        for i in 0..<n {
            remaining[i] = before[i].count
            for j in before[i] { dependents[j].append(i) }
        }
        var done = [Bool](repeating: false, count: n)
        var out: [FrameNode] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            // The farthest member that nothing still waits on; in a cycle,
            // the farthest of all left.
            let next = (0..<n).first { !done[$0] && remaining[$0] == 0 } ?? (0..<n).first { !done[$0] }!
            done[next] = true
            out.append(byCentre[next])
            for d in dependents[next] { remaining[d] -= 1 }
        }
        return out
    }

    /// Whether `a` must be drawn before `b` (true), after it (false), or
    /// either way as far as their planes tell (nil).
    static func planeOrder(_ a: FrameNode, _ b: FrameNode) -> Bool? {
        guard let ca = a.corners3D, let cb = b.corners3D else { return nil }
        if let side = side(of: ca, from: cb) { return side < 0 }  // a behind b's plane: a first
        if let side = side(of: cb, from: ca) { return side > 0 }  // b in front of a's plane: a first
        return nil
    }

    /// Which side of the plane of `plane` (as seen from the eye, at +z) all
    /// of `points` lie on: 1 in front, −1 behind, nil when they straddle it or
    /// the plane is seen edge on.
    static func side(of points: [SIMD3<Double>], from plane: [SIMD3<Double>]) -> Int? {
        var normal = cross(plane[1] - plane[0], plane[3] - plane[0])
        let length = (normal * normal).sum().squareRoot()
        guard length > 1e-12 else { return nil }
        normal /= length
        guard abs(normal.z) > 1e-6 else { return nil }
        if normal.z < 0 { normal = -normal }
        let scale = plane.map { abs($0.x) + abs($0.y) + abs($0.z) }.max()! + 1
        let tolerance = 1e-7 * scale
        var front = false, behind = false
        for p in points {
            let d = (normal * (p - plane[0])).sum()
            if d > tolerance { front = true } else if d < -tolerance { behind = true }
        }
        if front && behind { return nil }
        if front { return 1 }
        if behind { return -1 }
        return nil
    }
}

@inline(__always) func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
