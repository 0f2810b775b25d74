import Foundation
import StrataGraphics
import StrataLayers
import StrataText

/// A ruler's bad settings.
public enum RulerError: Error, Equatable, CustomStringConvertible {
    case invalidStep(Double)
    case invalidBound(Double)
    case minimumAboveMaximum(Double, Double)
    case invalidValue(Double)
    case tooManyTicks(Double)

    public var description: String {
        switch self {
        case .invalidStep(let s): "the ruler's step must be a finite number above 0, not \(s)"
        case .invalidBound(let b): "the ruler's minimum and maximum must be finite, not \(b)"
        case .minimumAboveMaximum(let lo, let hi): "the ruler's minimum \(lo) is above its maximum \(hi)"
        case .invalidValue(let v): "a ruler value must be finite, not \(v)"
        case .tooManyTicks(let n): "the ruler would have \(n) ticks; at most 10^15 fit"
        }
    }
}

/// What a ruler measures: values `step` apart from `minimum` to `maximum`,
/// a long, labelled tick every `ticksPerLongTick` ticks. Values are tick
/// indices times the step (tick i is i·step), so a million ticks on there
/// is no drift.
public struct RulerScale: Sendable, Hashable {
    public let step: Double
    public let minimum: Double
    public let maximum: Double
    public let ticksPerLongTick: Int
    /// The first and last tick indices.
    public let minimumIndex: Int
    public let maximumIndex: Int

    /// - Throws: `RulerError` for a step that is not finite and positive,
    ///   bounds that are not finite or the wrong way round, or more than
    ///   10^15 ticks.
    public init(step: Double, minimum: Double, maximum: Double, ticksPerLongTick: Int = 10) throws(RulerError) {
        guard step.isFinite, step > 0 else { throw .invalidStep(step) }
        guard minimum.isFinite else { throw .invalidBound(minimum) }
        guard maximum.isFinite else { throw .invalidBound(maximum) }
        guard minimum <= maximum else { throw .minimumAboveMaximum(minimum, maximum) }
        let lo = (minimum / step - 1e-9).rounded(.up), hi = (maximum / step + 1e-9).rounded(.down)
        guard abs(lo) < 1e15, abs(hi) < 1e15 else { throw .tooManyTicks(Swift.max(abs(lo), abs(hi))) }
        self.step = step
        self.minimum = minimum
        self.maximum = maximum
        self.ticksPerLongTick = Swift.max(1, Swift.min(1000, ticksPerLongTick))
        minimumIndex = Int(lo)
        maximumIndex = Swift.max(Int(lo), Int(hi))
    }

    /// The decimals that write multiples of `step` exactly (at most 6):
    /// 0 for 1 or 10, 1 for 0.5, 2 for 0.25.
    public static func fractionDigits(of step: Double) -> Int {
        var digits = 0
        while digits < 6, abs((step * pow(10, Double(digits))).rounded() - step * pow(10, Double(digits))) > 1e-9 { digits += 1 }
        return digits
    }

    /// The value of tick `index`.
    public func value(at index: Int) -> Double { Double(index) * step }

    /// The tick nearest `value`, within the range.
    public func index(nearest value: Double) -> Int {
        let i = (value / step).rounded()
        return Int(Swift.min(Double(maximumIndex), Swift.max(Double(minimumIndex), i)))
    }

    /// How many ticks there are.
    public var count: Int { maximumIndex - minimumIndex + 1 }

    /// Tick `index` wrapped into the range (999 then 9 again, as a wheel).
    public func wrapped(_ index: Int) -> Int {
        let n = count
        return minimumIndex + (((index - minimumIndex) % n) + n) % n
    }
}

/// A change of a ruler's value: the tick under the pointer and its value;
/// `isFinal` once the ruler has come to rest.
public struct RulerValueChange: Sendable, Hashable {
    public var value: Double
    public var tickIndex: Int
    public var isFinal: Bool
}

/// The seed's ruler, for entering a body weight: a scroll view of tick
/// blocks that never ends, with the value under a fixed pointer in the
/// middle.
///
/// - **Reuse**: a block is one long tick and the short ones after it;
///   there are as many block layers as the width needs plus two, reused as
///   they scroll out, so no layer is made after the first layout.
/// - **No end**: the content is a large virtual strip, and when the offset
///   drifts a quarter of it from the middle it is recentred by whole blocks,
///   content and offset together, in the middle of any motion: the frames
///   before and after are the same and a fling keeps its velocity.
/// - **Values** are tick indices (`tickIndex`) times the step. The ends
///   rubber-band, or wrap (`wrapsAround`).
/// - **Snapping**: where a fling will land is chosen at release (the
///   nearest tick to its resting point) and the fling is aimed there, so
///   the pointer always comes to rest on a tick, in one motion.
/// - **Callbacks**: `onValueChanged` at most once a frame while the value
///   changes, and once more, final, at rest; `onTick` for each frame in
///   which ticks were crossed (haptics, a click).
/// - Keys (arrows: a tick; page up and down: a long tick; home, end), the
///   wheel (a tick a line), right-to-left layout and a vertical orientation.
@MainActor
open class RulerView: ScrollView {
    public enum Orientation: Sendable, Hashable { case horizontal, vertical }

    /// The values; a new scale keeps the value (the tick nearest it).
    public var scale: RulerScale {
        didSet {
            placeTick(scale.index(nearest: oldValue.value(at: tickIndex)))
            relayout(force: true)
        }
    }
    public var orientation = Orientation.horizontal { didSet { resetGeometry() } }
    /// Values grow to the left (or upward, vertically).
    public var isRightToLeft = false { didSet { resetGeometry() } }
    /// Whether the ends join (the last tick followed by the first).
    public var wrapsAround = false { didSet { relayout(force: true) } }
    /// The distance between ticks, held to 2…200 points.
    public var tickSpacing = 10.0 {
        didSet {
            let held = tickSpacing.isFinite ? Swift.min(200, Swift.max(2, tickSpacing)) : 10
            if held != tickSpacing { tickSpacing = held }
            resetGeometry()
        }
    }
    /// Text after each label ("kg").
    public var unit = "" { didSet { relayout(force: true) } }
    /// A long tick's label for its value; nil: the value with the digits the
    /// long ticks' step needs, then `unit`.
    public var labelFormatter: ((Double) -> String)? { didSet { relayout(force: true) } }
    public var tickColor = Color(white: 0.35) { didSet { relayout(force: true) } }
    public var labelFont = Font(size: 13) { didSet { relayout(force: true) } }
    public var pointerColor = Color(red: 0.1, green: 0.55, blue: 0.3) { didSet { pointer.backgroundColor = pointerColor } }

    /// The value changes (at most one a frame, and a final one at rest).
    public var onValueChanged: ((RulerValueChange) -> Void)?
    /// Ticks crossed since the last frame that crossed any.
    public var onTick: ((Int) -> Void)?

    /// The tick under the pointer (wrapped into the range when wrapping).
    public private(set) var tickIndex = 0
    public var value: Double { scale.value(at: tickIndex) }

    /// Block layers made so far (they are reused; tests count them).
    @_spi(Benchmarks) public private(set) var blocksCreated = 0
    /// Recentring (off only for tests that compare pictures with and without it).
    var recentres = true
    /// Recentres done (for tests).
    @_spi(Benchmarks) public private(set) var recentreCount = 0

    private var baseIndex = 0
    private var blocks: [Int: RulerBlock] = [:]
    private var spare: [RulerBlock] = []
    private let pointer = Layer()
    private var reported: Int?
    private var lastTickIndex = 0
    private var ticksCrossed = 0
    private var settledPending = false
    private var laidOutSize = Size(width: 0, height: 0)

    public init(frame: Rect = Rect(x: 0, y: 0, width: 320, height: 80), scale: RulerScale) {
        self.scale = scale
        super.init(frame: frame)
        bounces = true
        showsHorizontalScrollIndicator = false
        showsVerticalScrollIndicator = false
        pointer.backgroundColor = pointerColor
        pointer.zPosition = 500
        pointer.anchorPoint = .zero
        layer.addSublayer(pointer)
        decelerationRate = .normal
        placeTick(scale.index(nearest: scale.minimum))
    }

    // MARK: Geometry along the axis

    private var horizontal: Bool { orientation == .horizontal }
    private var length: Double { horizontal ? bounds.width : bounds.height }
    private var blockLength: Double { Double(scale.ticksPerLongTick) * tickSpacing }
    /// The virtual strip's length and its middle.
    private var virtualLength: Double { Swift.max(40 * length, 200 * blockLength, 20_000) }
    private var origin: Double { (virtualLength / 2 / blockLength).rounded() * blockLength }
    private var direction: Double { isRightToLeft ? -1 : 1 }

    /// The content position of tick `i`.
    private func position(ofTick i: Int) -> Double { origin + direction * Double(i - baseIndex) * tickSpacing }

    /// The offset along the axis.
    private var axisOffset: Double { horizontal ? contentOffset.x : contentOffset.y }
    private func point(_ along: Double) -> Point { horizontal ? Point(x: along, y: 0) : Point(x: 0, y: along) }

    /// The unwrapped tick at the pointer for an offset along the axis.
    private func tick(atOffset o: Double) -> Int {
        let steps = (direction * (o + length / 2 - origin) / tickSpacing).rounded()
        // Held far beyond any range (an offset of 1e300 must not trap).
        return baseIndex &+ Int(steps.isFinite ? Swift.min(1e15, Swift.max(-1e15, steps)) : 0)
    }

    /// The offsets of the range's ends, wherever they are: the strip is
    /// recentred long before a motion reaches its own ends, so only the
    /// range stops the content (nothing stops a wrapping ruler).
    open override var minimumContentOffset: Point {
        guard !wrapsAround else { return point(-.infinity) }
        return point(position(ofTick: isRightToLeft ? scale.maximumIndex : scale.minimumIndex) - length / 2)
    }

    open override var maximumContentOffset: Point {
        guard !wrapsAround else { return point(.infinity) }
        return point(position(ofTick: isRightToLeft ? scale.minimumIndex : scale.maximumIndex) - length / 2)
    }

    /// Puts tick `index` under the pointer, at rest, in the middle of the
    /// strip.
    private func placeTick(_ index: Int) {
        stopMotion()
        let before = axisOffset
        baseIndex = index
        contentSize = horizontal ? Size(width: virtualLength, height: bounds.height) : Size(width: bounds.width, height: virtualLength)
        let o = origin - length / 2
        lastTickIndex = index
        contentOffset = point(o)
        offsetJumped(by: point(o - before))
        tickIndex = wrapsAround ? scale.wrapped(index) : index
        relayout(force: true)
    }

    /// Puts tick `goal` under the pointer at once, stopping any motion (a
    /// drag under way goes on from there); no `onTick` for the jump.
    private func jump(to goal: Int) {
        let o = position(ofTick: goal) - length / 2
        guard abs(o - axisOffset) < virtualLength / 4 else {
            placeTick(goal)
            return
        }
        stopMotion()
        let delta = o - axisOffset
        lastTickIndex = goal
        contentOffset = point(o)
        offsetJumped(by: point(delta))
        tickIndex = wrapsAround ? scale.wrapped(goal) : Swift.min(scale.maximumIndex, Swift.max(scale.minimumIndex, goal))
    }

    open override func sizeDidChange() {
        super.sizeDidChange()
        resetGeometry()
    }

    private func resetGeometry() {
        let keep = tickIndex
        for b in blocks.values { b.isInUse = false; spare.append(b) }
        blocks.removeAll()
        placeTick(keep)
    }

    // MARK: Values

    /// Moves the pointer to the tick nearest `value` (held to the range, or
    /// wrapped into it); animated along 0.3 s when the tick is within the
    /// strip, at once otherwise.
    /// - Throws: `RulerError.invalidValue` for NaN or an infinity.
    public func setValue(_ newValue: Double, animated: Bool) throws(RulerError) {
        guard newValue.isFinite else { throw .invalidValue(newValue) }
        let raw = (newValue / scale.step).rounded()
        guard abs(raw) < 1e15 else { throw .invalidValue(newValue) }
        let target = wrapsAround ? scale.wrapped(Int(raw)) : scale.index(nearest: newValue)
        // The unwrapped tick nearest the current one with that value.
        var goal = target
        if wrapsAround {
            let current = tick(atOffset: axisOffset), n = scale.count
            goal = current + ((((target - scale.wrapped(current)) % n) + n + n / 2) % n - n / 2)
        }
        let o = position(ofTick: goal) - length / 2
        if animated, o >= 0, o <= virtualLength - length {
            setContentOffset(point(o), animated: true)
        } else {
            jump(to: goal)
            report(final: true)
        }
    }

    /// One tick up (`by` 1) or down (−1), or more.
    public func step(by ticks: Int) {
        let (sum, overflow) = tickIndex.addingReportingOverflow(ticks)
        let target = overflow ? (ticks > 0 ? scale.maximumIndex : scale.minimumIndex) : sum
        try? setValue(scale.value(at: wrapsAround ? target : Swift.min(scale.maximumIndex, Swift.max(scale.minimumIndex, target))), animated: false)
    }

    // MARK: Layout

    open override func contentOffsetDidChange() {
        recentreIfNeeded()
        let t = tick(atOffset: axisOffset)
        if t != lastTickIndex {
            ticksCrossed += abs(t - lastTickIndex)
            lastTickIndex = t
            tickIndex = wrapsAround ? scale.wrapped(t) : Swift.min(scale.maximumIndex, Swift.max(scale.minimumIndex, t))
            needsFrames = true
        }
        relayout(force: false)
    }

    /// A quarter of the strip from its middle: back to the middle by whole
    /// blocks, content and offset together.
    private func recentreIfNeeded() {
        guard recentres else { return }
        let centre = axisOffset + length / 2
        let drift = centre - origin
        guard abs(drift) > virtualLength / 4 else { return }
        let moves = (drift / blockLength).rounded()
        guard moves.isFinite, abs(moves) < 1e12, moves != 0 else { return }
        let blocksMoved = Int(moves)
        let ticks = blocksMoved * scale.ticksPerLongTick
        baseIndex += Int(direction) * ticks
        recentreCount += 1
        shiftContent(by: point(-Double(blocksMoved) * blockLength))
        // Every block's position moved by the same; their drawings did not.
        relayout(force: false)
    }

    /// Places the blocks the view shows (and one past each side), reusing
    /// those that scrolled out; `force` redraws every block's ticks.
    private func relayout(force: Bool) {
        guard length > 0 else { return }
        let size = bounds.size
        let sizeChanged = size != laidOutSize
        laidOutSize = size
        if sizeChanged {
            contentSize = horizontal ? Size(width: virtualLength, height: size.height) : Size(width: size.width, height: virtualLength)
        }
        let n = scale.ticksPerLongTick
        // Block k holds ticks k·n ..< (k + 1)·n.
        func blockOf(_ tick: Int) -> Int { tick >= 0 ? tick / n : -((-tick + n - 1) / n) }
        let first = tick(atOffset: axisOffset - length / 2 - blockLength)
        let last = tick(atOffset: axisOffset + length / 2 + blockLength)
        let lo = blockOf(Swift.min(first, last)), hi = blockOf(Swift.max(first, last))
        var needed = Set(lo...hi)
        if !wrapsAround {
            needed = needed.filter { ($0 + 1) * n > scale.minimumIndex && $0 * n <= scale.maximumIndex }
        }
        for (k, b) in blocks where !needed.contains(k) || force {
            blocks[k] = nil
            b.isInUse = false
            spare.append(b)
        }
        withoutActions {
            // Every block the width can ever need, made at once: none later.
            let most = Int((length / blockLength).rounded(.up)) + 4
            while blocks.count + spare.count < most {
                let b = RulerBlock()
                blocksCreated += 1
                layer.addSublayer(b.layer)
                spare.append(b)
            }
            for k in needed.sorted() {
                if let b = blocks[k] {
                    b.place(at: position(ofTick: k * n), horizontal: horizontal, direction: direction, crossSize: crossSize)
                    continue
                }
                let b: RulerBlock
                if let s = spare.popLast() {
                    b = s
                } else {
                    b = RulerBlock()
                    blocksCreated += 1
                    layer.addSublayer(b.layer)
                }
                blocks[k] = b
                b.isInUse = true
                b.draw(block: k, ruler: self)
                b.place(at: position(ofTick: k * n), horizontal: horizontal, direction: direction, crossSize: crossSize)
            }
            for s in spare { s.layer.isHidden = true }
            // The pointer: a bar across the middle.
            let o = contentOffset, b = bounds
            pointer.frame =
                horizontal
                ? Rect(x: o.x + b.width / 2 - 1.5, y: o.y, width: 3, height: b.height * 0.7)
                : Rect(x: o.x, y: o.y + b.height / 2 - 1.5, width: b.width * 0.7, height: 3)
        }
    }

    private var crossSize: Double { horizontal ? bounds.height : bounds.width }

    /// The ticks of block `k`'s range that exist (all when wrapping).
    fileprivate func ticks(ofBlock k: Int) -> [Int] {
        let n = scale.ticksPerLongTick
        return (k * n..<(k + 1) * n).filter { wrapsAround || ($0 >= scale.minimumIndex && $0 <= scale.maximumIndex) }
    }

    fileprivate func label(forTick i: Int) -> String {
        let index = wrapsAround ? scale.wrapped(i) : i
        let v = scale.value(at: index)
        if let labelFormatter { return labelFormatter(v) }
        let digits = RulerScale.fractionDigits(of: scale.step * Double(scale.ticksPerLongTick))
        let text = String(format: "%.\(digits)f", v == 0 ? 0 : v)
        return unit.isEmpty ? text : "\(text) \(unit)"
    }

    fileprivate var tickSpacingValue: Double { tickSpacing }

    // MARK: Snapping and callbacks

    open override func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        let along = horizontal ? proposed.x : proposed.y
        var t = tick(atOffset: along)
        if !wrapsAround {
            let lo = tick(atOffset: horizontal ? minimumContentOffset.x : minimumContentOffset.y)
            let hi = tick(atOffset: horizontal ? maximumContentOffset.x : maximumContentOffset.y)
            t = Swift.min(Swift.max(lo, hi), Swift.max(Swift.min(lo, hi), t))
        }
        let o = position(ofTick: t) - length / 2
        return horizontal ? Point(x: o, y: proposed.y) : Point(x: proposed.x, y: o)
    }

    open override func scrollingDidEnd() {
        // At rest between ticks (a trackpad, say): aim for the nearest.
        let snapped = targetContentOffset(forProposed: contentOffset, velocity: Point(x: 0, y: 0))
        if abs((horizontal ? snapped.x - contentOffset.x : snapped.y - contentOffset.y)) > 1e-6 {
            setContentOffset(snapped, animated: true)
            return
        }
        settledPending = true
        needsFrames = true
    }

    open override func frame(at time: Double) {
        super.frame(at: time)
        if ticksCrossed > 0 {
            onTick?(ticksCrossed)
            ticksCrossed = 0
        }
        // One call a frame: the final one at rest, else a change.
        if settledPending {
            settledPending = false
            report(final: true)
        } else if reported != tickIndex {
            report(final: false)
        }
    }

    private func report(final: Bool) {
        reported = tickIndex
        onValueChanged?(RulerValueChange(value: value, tickIndex: tickIndex, isFinal: final))
    }

    // MARK: Accessibility

    open override var isAccessibilityElement: Bool {
        get { accessibility.isElement ?? true }
        set { accessibility.isElement = newValue }
    }

    /// The value as the ruler labels it (with its unit), unless set.
    open override var accessibilityValue: String? {
        get {
            if let value = accessibility.value { return value }
            if let labelFormatter { return labelFormatter(value) }
            let text = String(format: "%.\(RulerScale.fractionDigits(of: scale.step))f", value == 0 ? 0 : value)
            return unit.isEmpty ? text : "\(text) \(unit)"
        }
        set { accessibility.value = newValue }
    }

    /// A slider, unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? .slider }
        set { accessibility.role = newValue }
    }

    /// `.adjustable`, unless set: a slider.
    open override var accessibilityTraits: AccessibilityTraits {
        get { accessibility.traits ?? .adjustable }
        set { accessibility.traits = newValue }
    }

    /// The value, on the scale's range by its step.
    open override var accessibilityNumericValue: AccessibilityNumericValue? {
        AccessibilityNumericValue(current: value, minimum: scale.minimum, maximum: scale.maximum, increment: scale.step)
    }

    /// Moves to the tick nearest `value`.
    @discardableResult
    open override func setAccessibilityNumericValue(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        return (try? setValue(value, animated: false)) != nil
    }

    /// One tick up.
    open override func accessibilityIncrement() { step(by: 1) }

    /// One tick down.
    open override func accessibilityDecrement() { step(by: -1) }

    // MARK: Input

    open override var canBecomeFirstResponder: Bool { true }

    open override func keyEvent(_ event: KeyEvent) -> Bool {
        guard event.phase == .down else { return false }
        let forward: Key = horizontal ? (isRightToLeft ? .left : .right) : (isRightToLeft ? .up : .down)
        let backward: Key = horizontal ? (isRightToLeft ? .right : .left) : (isRightToLeft ? .down : .up)
        let n = scale.ticksPerLongTick
        switch event.key {
        case forward: step(by: 1)
        case backward: step(by: -1)
        case .pageDown: step(by: n)
        case .pageUp: step(by: -n)
        case .home: try? setValue(scale.value(at: scale.minimumIndex), animated: false)
        case .end: try? setValue(scale.value(at: scale.maximumIndex), animated: false)
        default: return false
        }
        return true
    }

    open override func scrollEvent(_ event: ScrollEvent) -> Bool {
        // A wheel moves by whole ticks, one a line.
        if !event.isPrecise, event.phase == .none {
            let lines = horizontal ? (event.lines.width != 0 ? event.lines.width : event.lines.height) : event.lines.height
            guard lines != 0, lines.isFinite else { return false }
            step(by: Int(Swift.min(1e6, Swift.max(-1e6, lines.rounded(lines > 0 ? .up : .down)))))
            return true
        }
        return super.scrollEvent(event)
    }
}

/// One block of a ruler: a long tick with its label and the short ticks
/// after it, drawn by a shape layer and a text layer inside a plain layer.
@MainActor
final class RulerBlock {
    let layer = Layer()
    let ticks = ShapeLayer()
    let label = TextLayer()
    var isInUse = false

    init() {
        layer.anchorPoint = .zero
        ticks.anchorPoint = .zero
        ticks.fillColor = nil
        label.anchorPoint = .zero
        layer.addSublayer(ticks)
        layer.addSublayer(label)
    }

    func draw(block k: Int, ruler: RulerView) {
        layer.isHidden = false
        let n = ruler.scale.ticksPerLongTick, spacing = ruler.tickSpacingValue
        let horizontal = ruler.orientation == .horizontal
        let cross = horizontal ? ruler.bounds.height : ruler.bounds.width
        let dir = ruler.isRightToLeft ? -1.0 : 1.0
        var path = Path()
        // Long and middle ticks by the value's own index (wrapped, when the
        // ruler wraps: a range whose tick count is not a multiple of n then
        // puts its long ticks wherever its values fall).
        var labelTick: (index: Int, along: Double)?
        for i in ruler.ticks(ofBlock: k) {
            let along = dir * Double(i - k * n) * spacing + (dir < 0 ? Double(n) * spacing : 0) + 0.5
            let e = ruler.wrapsAround ? ruler.scale.wrapped(i) : i
            let phase = ((e % n) + n) % n
            let long = phase == 0
            if long, labelTick == nil { labelTick = (i, along - 0.5) }
            // A middle tick halfway between long ones, a little longer.
            let middle = n % 2 == 0 && phase == n / 2
            let l = cross * (long ? 0.45 : middle ? 0.33 : 0.25)
            if horizontal {
                path.move(to: Point(x: along, y: 0))
                path.addLine(to: Point(x: along, y: l))
            } else {
                path.move(to: Point(x: 0, y: along))
                path.addLine(to: Point(x: l, y: along))
            }
        }
        ticks.path = path
        ticks.strokeColor = ruler.tickColor
        ticks.lineWidth = 1
        label.isHidden = labelTick == nil
        if let labelTick {
            label.string = ruler.label(forTick: labelTick.index)
            label.fontSize = ruler.labelFont.size
            label.fontFamily = ruler.labelFont.family
            label.foregroundColor = ruler.tickColor
            label.alignmentMode = .center
        }
        let blockLength = Double(n) * spacing
        layer.bounds =
            horizontal
            ? Rect(x: 0, y: 0, width: blockLength + 1, height: cross) : Rect(x: 0, y: 0, width: cross, height: blockLength + 1)
        let longAt = labelTick?.along ?? 0
        label.frame =
            horizontal
            ? Rect(x: longAt - 40, y: cross * 0.5, width: 80, height: cross * 0.4)
            : Rect(x: cross * 0.5, y: longAt - 8, width: cross * 0.5, height: 16)
    }

    /// Puts the block so that its long tick sits at `along` on the axis.
    func place(at along: Double, horizontal: Bool, direction: Double, crossSize: Double) {
        // Right to left, the long tick is at the block's far end.
        if horizontal {
            layer.position = Point(x: (direction < 0 ? along - layer.bounds.width + 1 : along) - 0.5, y: 0)
        } else {
            layer.position = Point(x: 0, y: (direction < 0 ? along - layer.bounds.height + 1 : along) - 0.5)
        }
    }
}
