import StrataGraphics

/// A region of the frame whose previous pixels the compositor moved, whole,
/// instead of redrawing them: what a scrolling layer's content did between two
/// frames. A window presenting the frame can do the same move on its side
/// (`XCopyArea`) and then send the redrawn rectangles.
public struct FrameCopy: Equatable, Sendable {
    /// The region, in device pixels (whole pixels): the scrolling layer's
    /// bounds, as its ancestors clip them.
    public var rect: Rect
    /// How far the pixels moved, in device pixels.
    public var dx: Int
    public var dy: Int
}

/// Scrolling by copying pixels.
///
/// A layer that masks to its bounds and fills them with an opaque background
/// hides everything behind it, so inside its bounds the frame shows only the
/// layer and its subtree (and whatever is drawn above it). When its sublayers
/// all move by the same whole number of device pixels and nothing else about
/// them changed, the previous frame already holds their pixels, one move away.
/// The compositor then moves the region's pixels (`Bitmap.scrollPixels`) and
/// redraws only:
/// - the band the move uncovers;
/// - sublayers that changed, appeared or vanished (where they were, moved,
///   and where they are), and those that did not move with the rest;
/// - layers outside the subtree that overlap the region (where they were,
///   moved, and where they are), since their pixels moved too.
/// The result is the frame a full redraw makes (tests compare the two).
extension FramePass {
    /// `r` through an axis-aligned map `h`, when it lands on whole device
    /// pixels; otherwise null.
    func exactDeviceRect(of r: Rect, _ h: Homography) -> Rect { Compositor.exactDeviceRect(of: r, h) }

    /// `v` rounded, when it is within a millionth of a whole pixel and not huge.
    static func wholePixel(_ v: Double) -> Double? {
        let r = v.rounded()
        return abs(v - r) < 1e-6 && abs(r) < 1e9 ? r : nil
    }

    /// The region `node`'s sublayers could scroll in (device pixels), or nil:
    /// a layer drawn straight into the frame, plain (no contents, special
    /// drawing, border, mask or shadow), masking to a rectangle on whole
    /// pixels that its opaque, untinted background fills, and unchanged since
    /// the previous frame (`record`), so the region already shows it.
    mutating func scrollCandidate(
        _ node: RenderNode, _ s: LayerState, _ p: FrameNode, _ inherited: Inherited, _ region: Rect,
        _ record: Compositor.Record, key: Int
    ) -> Rect? {
        guard s.masksToBounds, inherited.drawsIntoFrame, !region.isNull, region.width >= 2 || region.height >= 2,
            p.special == nil, s.contents == nil, s.borderWidth <= 0, s.cornerRadius <= 0, node.mask == nil,
            s.shadowOpacity <= 0, s.opacity >= 1, inherited.opacity >= 1, inherited.tint == nil,
            let background = s.backgroundColor, background.alpha >= 1, !node.sublayers.isEmpty,
            !record.animated, let old = previousRecords[key], old == record,
            !copies.contains(where: { $0.rect.intersects(region) })
        else { return nil }
        return region
    }

    /// Judges the records of a scroll candidate's subtree (`deferred`) once
    /// they are all made: finds the translation most of the moved ones share
    /// and, when there is one, turns the region into a copy and damages only
    /// what the copy does not get right. Without one, each record is compared
    /// as usual.
    mutating func judgeScroll(_ deferred: [(key: Int, record: Compositor.Record)], in region: Rect, key: Int) {
        // Each record's previous one and how far it moved (looked up once),
        // and the votes: a few distinct moves at most, so a list.
        var olds: [(record: Compositor.Record, moved: Offset?)?] = []
        olds.reserveCapacity(deferred.count)
        var votes: [(offset: Offset, count: Int)] = []
        for (k, r) in deferred {
            guard let old = previousRecords[k] else {
                olds.append(nil)
                continue
            }
            let d = Offset(from: old.transform, to: r.transform)
            olds.append((old, d))
            guard let d, d != .zero else { continue }
            if let i = votes.firstIndex(where: { $0.offset == d }) { votes[i].count += 1 } else { votes.append((d, 1)) }
        }
        guard let d = votes.max(by: { $0.count < $1.count })?.offset, Double(abs(d.dx)) < region.width,
            Double(abs(d.dy)) < region.height
        else {
            for (k, r) in deferred { compare(r, key: k) }
            return
        }
        for ((_, r), previous) in zip(deferred, olds) {
            guard let (old, offset) = previous else {
                damage.add(r.box)
                continue
            }
            let sameClip = r.clip == old.clip || r.clip == old.clip.offsetBy(dx: Double(d.dx), dy: Double(d.dy))
            if offset == d, sameClip, !r.animated, !old.animated, r.version == old.version, r.opacity == old.opacity,
                r.tintAndContentVersion == old.tintAndContentVersion
            {
                continue
            }
            // Where its old pixels were moved to, and where it is now.
            damage.add(d.apply(old.box.intersection(region)).intersection(region))
            damage.add(r.box)
        }
        // The band the move uncovers.
        let dx = Double(d.dx), dy = Double(d.dy)
        if d.dx > 0 { damage.add(Rect(x: region.minX, y: region.minY, width: dx, height: region.height)) }
        if d.dx < 0 { damage.add(Rect(x: region.maxX + dx, y: region.minY, width: -dx, height: region.height)) }
        if d.dy > 0 { damage.add(Rect(x: region.minX, y: region.minY, width: region.width, height: dy)) }
        if d.dy < 0 { damage.add(Rect(x: region.minX, y: region.maxY + dy, width: region.width, height: -dy)) }
        copies.append(FrameCopy(rect: region, dx: d.dx, dy: d.dy))
        copyAncestry.append(ancestry + [key])
    }

    /// Damages, for each copy, the layers outside its layer's subtree (other
    /// than its ancestors, which draw under it) that overlap its region, now
    /// or in the previous frame: their pixels there moved with the copy.
    /// Called once the tree is prepared.
    mutating func damageAroundCopies(_ tree: FrameNode?) {
        guard let tree, !copies.isEmpty else { return }
        for (i, copy) in copies.enumerated() {
            let ancestors = Set(copyAncestry[i].dropLast())
            let scroller = copyAncestry[i].last
            damageOutside(tree, copy, scroller: scroller, ancestors: ancestors)
        }
    }

    private mutating func damageOutside(_ n: FrameNode, _ copy: FrameCopy, scroller: Int?, ancestors: Set<Int>) {
        if n.key == scroller { return }
        // An ancestor draws under the scrolling layer, but its border on top.
        if !ancestors.contains(n.key) || n.state.borderWidth > 0 {
            if let r = records[n.key] { damage.add(r.box.intersection(copy.rect)) }
            if let old = previousRecords[n.key] { damage.add(copy.moved(old.box)) }
        }
        for c in n.children { damageOutside(c, copy, scroller: scroller, ancestors: ancestors) }
    }
}

extension FrameCopy {
    /// Where the pixels of `r` inside the region are after the copy.
    func moved(_ r: Rect) -> Rect {
        r.intersection(rect).offsetBy(dx: Double(dx), dy: Double(dy)).intersection(rect)
    }
}

/// A translation by whole device pixels.
struct Offset: Hashable {
    var dx: Int
    var dy: Int
    static let zero = Offset(dx: 0, dy: 0)

    /// The translation taking `a` to `b`, when they differ only by whole pixels.
    init?(from a: Homography, to b: Homography) {
        guard a.isAffine, b.isAffine, a.m11 == b.m11, a.m12 == b.m12, a.m21 == b.m21, a.m22 == b.m22,
            let x = FramePass.wholePixel(b.m41 - a.m41), let y = FramePass.wholePixel(b.m42 - a.m42)
        else { return nil }
        dx = Int(x)
        dy = Int(y)
    }

    init(dx: Int, dy: Int) {
        self.dx = dx
        self.dy = dy
    }

    func apply(_ r: Rect) -> Rect { r.offsetBy(dx: Double(dx), dy: Double(dy)) }
}
