internal import CoreGraphics
public import Foundation
internal import StrataControls
internal import StrataGraphics
internal import StrataLayers

/// What a scroll view tells its delegate (`UIScrollViewDelegate`), in
/// UIKit's order; every method is optional.
@MainActor
public protocol UIScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
    /// `velocity` in points per millisecond; set `targetContentOffset.pointee`
    /// to land the fling elsewhere.
    func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>)
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView)
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
    public func scrollViewWillEndDragging(
        _ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>
    ) {}
    public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {}
}

/// The Strata scroll view behind a `UIScrollView`: its physics, paging,
/// rubber banding and indicators, with the `UIView`'s hit testing and
/// touches.
@MainActor
final class ScrollNode: ScrollView, ViewBacking {
    weak var owner: UIView? {
        didSet { bridge.scrollOwner = owner as? UIScrollView }
    }
    var scrollOwner: UIScrollView? { owner as? UIScrollView }
    /// Tells the `UIScrollView`'s delegate what Strata's scroll view tells
    /// its own (held here: a scroll view holds its delegate weakly).
    private let bridge = ScrollDelegateBridge()

    init(layer: Layer) {
        super.init(frame: Rect(x: 0, y: 0, width: 0, height: 0), layer: layer)
        delegate = bridge
    }

    override func hitTest(_ point: Point) -> View? {
        guard let owner else { return super.hitTest(point) }
        return owner.hitTest(CGPoint(point), with: nil)?.node
    }

    override func point(inside point: Point) -> Bool {
        owner?.point(inside: CGPoint(point), with: nil) ?? super.point(inside: point)
    }

    override func pointerEvent(_ event: PointerEvent) -> Bool { owner?.handlePointer(event) ?? false }

    override func sizeDidChange() {
        super.sizeDidChange()
        owner?.boundsSizeDidChange()
    }

    override func contentOffsetDidChange() {
        super.contentOffsetDidChange()
        scrollOwner?.setNeedsLayout()
    }
}

/// Passes Strata's scroll view callbacks to the `UIScrollView`'s delegate.
@MainActor
final class ScrollDelegateBridge: ScrollViewDelegate {
    weak var scrollOwner: UIScrollView?

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        guard let s = scrollOwner else { return }
        s.delegate?.scrollViewDidScroll(s)
    }

    func scrollViewWillBeginDragging(_ scrollView: ScrollView) {
        guard let s = scrollOwner else { return }
        s.delegate?.scrollViewWillBeginDragging(s)
    }

    func scrollViewWillEndDragging(_ scrollView: ScrollView, velocity: Point, targetContentOffset: inout Point) {
        guard let s = scrollOwner, let delegate = s.delegate else { return }
        var target = CGPoint(targetContentOffset)
        withUnsafeMutablePointer(to: &target) { delegate.scrollViewWillEndDragging(s, withVelocity: CGPoint(velocity), targetContentOffset: $0) }
        targetContentOffset = target.strata
    }

    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool) {
        guard let s = scrollOwner else { return }
        s.delegate?.scrollViewDidEndDragging(s, willDecelerate: willDecelerate)
    }

    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {
        guard let s = scrollOwner else { return }
        s.delegate?.scrollViewWillBeginDecelerating(s)
    }

    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {
        guard let s = scrollOwner else { return }
        s.delegate?.scrollViewDidEndDecelerating(s)
    }

    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {
        guard let s = scrollOwner else { return }
        s.delegate?.scrollViewDidEndScrollingAnimation(s)
    }
}

/// A view whose content, larger than itself, moves under touches
/// (`UIScrollView`), over Strata's `ScrollView`: the same deceleration,
/// rubber banding, paging and indicators. `contentOffset` is the bounds'
/// origin, as in UIKit; subviews are placed in content coordinates.
@MainActor
open class UIScrollView: UIView {
    override class func makeNode(layer: Layer) -> View { ScrollNode(layer: layer) }

    var scroll: ScrollView { node as! ScrollView }

    public weak var delegate: (any UIScrollViewDelegate)?

    /// The view's pan recognizer (the drag that scrolls it).
    public private(set) lazy var panGestureRecognizer: UIPanGestureRecognizer = {
        let recognizer = UIPanGestureRecognizer(existing: scroll.panGestureRecognizer)
        recognizer.view = self
        return recognizer
    }()

    public override init(frame: CGRect) { super.init(frame: frame) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The content point at the view's top left. Set while a drag or a
    /// fling is under way, the drag or fling goes on from the new offset
    /// (as UIKit's does: how content that never ends is recentred in
    /// `layoutSubviews()`).
    open var contentOffset: CGPoint {
        get { CGPoint(scroll.contentOffset) }
        set {
            let old = scroll.contentOffset, new = newValue.strata
            guard new.x.isFinite, new.y.isFinite, new != old else { return }
            if scroll.isDragging || scroll.isDecelerating {
                scroll.shiftContent(by: Point(x: new.x - old.x, y: new.y - old.y))
                setNeedsLayout()
                delegate?.scrollViewDidScroll(self)
            } else {
                scroll.contentOffset = new
            }
        }
    }

    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        scroll.setContentOffset(contentOffset.strata, animated: animated)
    }

    open var contentSize: CGSize {
        get { CGSize(width: scroll.contentSize.width, height: scroll.contentSize.height) }
        set { scroll.contentSize = newValue.strata }
    }

    open var contentInset: UIEdgeInsets {
        get {
            let i = scroll.contentInset
            return UIEdgeInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
        }
        set {
            scroll.contentInset = EdgeInsets(
                top: Double(newValue.top), left: Double(newValue.left), bottom: Double(newValue.bottom), right: Double(newValue.right))
        }
    }

    /// The insets in effect: `contentInset` (there are no safe areas here).
    open var adjustedContentInset: UIEdgeInsets { contentInset }

    open var isScrollEnabled: Bool {
        get { scroll.isScrollEnabled }
        set { scroll.isScrollEnabled = newValue }
    }

    open var isPagingEnabled: Bool {
        get { scroll.isPagingEnabled }
        set { scroll.isPagingEnabled = newValue }
    }

    open var bounces: Bool {
        get { scroll.bounces }
        set { scroll.bounces = newValue }
    }

    open var alwaysBounceVertical: Bool {
        get { scroll.alwaysBounceVertical }
        set { scroll.alwaysBounceVertical = newValue }
    }

    open var alwaysBounceHorizontal: Bool {
        get { scroll.alwaysBounceHorizontal }
        set { scroll.alwaysBounceHorizontal = newValue }
    }

    open var showsVerticalScrollIndicator: Bool {
        get { scroll.showsVerticalScrollIndicator }
        set { scroll.showsVerticalScrollIndicator = newValue }
    }

    open var showsHorizontalScrollIndicator: Bool {
        get { scroll.showsHorizontalScrollIndicator }
        set { scroll.showsHorizontalScrollIndicator = newValue }
    }

    /// How fast a fling slows (`UIScrollView.DecelerationRate`): the
    /// fraction of velocity kept each millisecond.
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public static let normal = DecelerationRate(rawValue: 0.998)
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    open var decelerationRate: DecelerationRate {
        get { DecelerationRate(rawValue: CGFloat(scroll.decelerationRate.rawValue)) }
        set { scroll.decelerationRate = ScrollPhysics.DecelerationRate(rawValue: Double(newValue.rawValue)) }
    }

    /// Whether a finger is on the content and has moved it.
    public var isDragging: Bool { scroll.isDragging }
    /// Whether a finger is moving the content (as `isDragging` here).
    public var isTracking: Bool { scroll.isDragging }
    public var isDecelerating: Bool { scroll.isDecelerating }

    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) { scroll.scrollRectToVisible(rect.strata, animated: animated) }
    open func flashScrollIndicators() { scroll.flashScrollIndicators() }
}
