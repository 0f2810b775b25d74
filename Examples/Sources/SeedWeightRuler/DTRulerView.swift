// The infinite weight ruler of the third seed article (DTRulerView,
// ../shared/seeds/002), ported from its Objective-C line by line to Swift
// with Apple's names. The article's theme manager is a struct of colours
// here; everything else is the article's: reused scale blocks in a
// container, recentring in layoutSubviews, snapping on release, and
// scroll callbacks thinned to one a frame.
import UIKit

let DTRulerScaleBlockWidth: CGFloat = 100
let DTRulerScaleGap: CGFloat = 10

/// The article's theme (its DTThemeManager).
enum DTTheme {
    static let temporaryViewBackgroundColor = UIColor(red: 0.16, green: 0.67, blue: 0.53, alpha: 1)
    static let temporaryViewTextColor = UIColor.white
    static let rulerScaleTextFont = UIFont.systemFont(ofSize: 14)
}

/// One block of ten scale marks, labelled with its weight.
final class DTRulerViewScale: UIView {
    var weight: Int {
        didSet {
            if weight != oldValue { setNeedsDisplay() }
        }
    }

    init(weight: Int, frameHeight height: CGFloat) {
        self.weight = weight
        super.init(frame: CGRect(x: 0.0, y: 0.0, width: DTRulerScaleBlockWidth, height: height))
        backgroundColor = DTTheme.temporaryViewBackgroundColor
    }

    required init?(coder: NSCoder) {
        weight = 0
        super.init(coder: coder)
    }

    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        doScale(withWeight: weight, rect: rect, context: context)
    }

    func doScale(withWeight weight: Int, rect: CGRect, context: CGContext) {
        let startX = rect.midX + DTRulerScaleGap / 2
        let startY = rect.minY
        DTTheme.temporaryViewTextColor.setStroke()
        let weightLabel = "\(weight)" as NSString
        let attributes: [NSAttributedString.Key: Any] = [
            .font: DTTheme.rulerScaleTextFont, .foregroundColor: DTTheme.temporaryViewTextColor,
        ]
        let textSize = weightLabel.size(withAttributes: attributes)
        weightLabel.draw(
            in: CGRect(
                x: startX - textSize.width / 2, y: startY + frame.size.height * 0.46875 + 4, width: textSize.width, height: textSize.height),
            withAttributes: attributes)
        context.setLineWidth(2.0)
        context.move(to: CGPoint(x: startX, y: startY))
        context.addLine(to: CGPoint(x: startX, y: frame.size.height * 0.46875))
        context.drawPath(using: .stroke)
        doScaleFromMidToEdge(withStartX: startX, startY: startY, counter: 4, plus: true, context: context)
        doScaleFromMidToEdge(withStartX: startX, startY: startY, counter: 5, plus: false, context: context)
    }

    func doScaleFromMidToEdge(withStartX startX: CGFloat, startY: CGFloat, counter: Int, plus: Bool, context: CGContext) {
        var startX = startX
        context.setLineWidth(1)
        for _ in 0..<counter {
            if plus {
                startX += DTRulerScaleGap
            } else {
                startX -= DTRulerScaleGap
            }
            context.move(to: CGPoint(x: startX, y: startY))
            context.addLine(to: CGPoint(x: startX, y: frame.size.height * 0.3125))
            context.drawPath(using: .stroke)
        }
    }
}

@MainActor
protocol DTRulerViewDelegate: AnyObject {
    func rulerViewDidChange(_ rulerView: DTRulerView, weight: Float)
}

let DTRulerScaleBlockNumber = 5
let DTRulerMinScale = 9
let DTRulerMaxScale = 999

/// The ruler: a scroll view whose content is recentred as it scrolls, so
/// it never ends.
final class DTRulerView: UIScrollView, UIScrollViewDelegate {
    weak var rulerViewDelegate: (any DTRulerViewDelegate)?
    private var weights: [Int] = []
    private var rulerScales: [DTRulerViewScale] = []
    private var reusedRulerScales: [DTRulerViewScale] = []
    private let container = UIView()
    private var lastTime: TimeInterval = 0

    init(frame: CGRect, weight: Float) {
        super.init(frame: frame)  // frame is necessary for calculating scale position
        contentSize = CGSize(width: DTRulerScaleBlockWidth * CGFloat(DTRulerScaleBlockNumber), height: frame.size.height)
        showsHorizontalScrollIndicator = false
        delegate = self
        container.frame = CGRect(x: 0, y: 0, width: contentSize.width, height: frame.size.height)
        container.isUserInteractionEnabled = false
        addSubview(container)

        var weightInt = Int((weight * 10).rounded())
        let weightDecimal = weightInt % 10  // get weight's decimal
        weightInt /= 10
        var offsetGapNumber = 0
        if weightDecimal <= 4 {
            offsetGapNumber = weightDecimal + 5
        } else {
            offsetGapNumber = weightDecimal - 5
            weightInt += 1
        }
        var startX = frame.midX - DTRulerScaleGap / 2  // point to middle scale block's first scale
        startX -= CGFloat(offsetGapNumber) * DTRulerScaleGap  // first scale with right gap offset
        for index in [0, -1, -2, 1, 2] {
            placeWeight(index == 0 ? weightInt : nil, orNewPrevious: index < 0) { frame in
                var frame = frame
                frame.origin.x += startX + frame.size.width * CGFloat(index)
                return frame
            }
        }
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        recenterIfNecessary()
        let visibleBounds = self.visibleBounds()
        tileChildren(fromMinX: visibleBounds.minX, toMaxX: visibleBounds.maxX)
    }

    func recenterIfNecessary() {
        let currentOffset = contentOffset
        let contentWidth = contentSize.width
        let centerOffsetX = (contentWidth - bounds.size.width) / 2.0
        let distanceFromCenterSign = currentOffset.x - centerOffsetX
        let distanceFromCenter = abs(distanceFromCenterSign)
        if distanceFromCenter > centerOffsetX {
            contentOffset = CGPoint(x: centerOffsetX, y: currentOffset.y)
            // move content by the same amount so it appears to stay still
            moveAllChildren(withOffsetX: -distanceFromCenterSign, animation: false)
        }
    }

    func moveAllChildren(withOffsetX offsetX: CGFloat, animation: Bool) {
        if animation {
            UIView.animate(withDuration: 0.2) {
                for rulerScale in self.rulerScales {
                    rulerScale.center = CGPoint(x: rulerScale.center.x + offsetX, y: rulerScale.center.y)
                }
            }
        } else {
            for rulerScale in rulerScales {
                rulerScale.center = CGPoint(x: rulerScale.center.x + offsetX, y: rulerScale.center.y)
            }
        }
    }

    func visibleBounds() -> CGRect { convert(bounds, to: container) }

    func placeWeight(_ weight: Int?, orNewPrevious previous: Bool, calculateFrame: (CGRect) -> CGRect) {
        let rulerScale = reusedRulerScales.popLast() ?? DTRulerViewScale(weight: 0, frameHeight: frame.size.height)
        var weight = weight
        if weight == nil && !previous {
            weight = nextWeight()
        }
        if !previous {
            weights.append(weight!)
            rulerScales.append(rulerScale)
            container.addSubview(rulerScale)
        } else {
            weight = previousWeight()
            weights.insert(weight!, at: 0)
            rulerScales.insert(rulerScale, at: 0)
            container.insertSubview(rulerScale, at: 0)
        }
        rulerScale.weight = weight!
        rulerScale.frame = calculateFrame(rulerScale.frame)
    }

    func previousWeight() -> Int {
        let weight = weights[0]
        return weight > DTRulerMinScale ? weight - 1 : DTRulerMaxScale
    }

    func nextWeight() -> Int {
        let weight = weights.last!
        return weight < DTRulerMaxScale ? weight + 1 : DTRulerMinScale
    }

    func tileChildren(fromMinX minimumVisibleX: CGFloat, toMaxX maximumVisibleX: CGFloat) {
        // add child that are missing on right side
        var last = rulerScales.last
        var rightEdge = last?.frame.maxX ?? 0
        if rightEdge < maximumVisibleX {
            placeWeight(nil, orNewPrevious: false) { frame in
                var frame = frame
                frame.origin.x = rightEdge
                return frame
            }
        }
        // add child that are missing on left side
        var first = rulerScales[0]
        var leftEdge = first.frame.minX
        if leftEdge > minimumVisibleX {
            placeWeight(nil, orNewPrevious: true) { frame in
                var frame = frame
                frame.origin.x = leftEdge - frame.size.width
                return frame
            }
        }
        if rulerScales.count > DTRulerScaleBlockNumber {
            // remove child that have fallen off right edge
            last = rulerScales.last
            leftEdge = last?.frame.minX ?? 0
            if let last, leftEdge > maximumVisibleX {
                reusedRulerScales.append(last)
                weights.removeLast()
                rulerScales.removeLast()
                last.removeFromSuperview()
            }
            // remove child that have fallen off left edge
            first = rulerScales[0]
            rightEdge = first.frame.maxX
            if rightEdge < minimumVisibleX {
                reusedRulerScales.append(first)
                weights.remove(at: 0)
                rulerScales.remove(at: 0)
                first.removeFromSuperview()
            }
        }
    }

    func weightPointed(withRevise revise: Bool) -> Float {
        var weightFloat: Float = 0.0
        let middleVisibleX = visibleBounds().midX
        for (i, rulerScale) in rulerScales.enumerated() {
            let rulerScaleMinX = rulerScale.frame.minX
            let rulerScaleMaxX = rulerScale.frame.maxX
            // point to which scale block
            if rulerScaleMinX <= middleVisibleX && middleVisibleX < rulerScaleMaxX {
                let weight = weights[i]
                for j in 0..<10 {
                    let rulerSingleScaleMinX = rulerScaleMinX + CGFloat(j) * DTRulerScaleGap
                    let rulerSingleScaleMidX = rulerSingleScaleMinX + DTRulerScaleGap / 2
                    let rulerSingleScaleMaxX = rulerScaleMinX + CGFloat(j + 1) * DTRulerScaleGap
                    // point to which scale block's single scale
                    if rulerSingleScaleMinX <= middleVisibleX && middleVisibleX < rulerSingleScaleMaxX {
                        weightFloat = Float(weight) + Float(j - 5) * 0.1
                        // point to scale without offset
                        if revise {
                            moveAllChildren(withOffsetX: middleVisibleX - rulerSingleScaleMidX, animation: true)
                        }
                        break
                    }
                }
                break
            }
        }
        return weightFloat
    }

    func isEnoughTimeElapsed() -> Bool {
        let currentTime = Date().timeIntervalSince1970
        var isEnough = false
        if lastTime == 0 {
            isEnough = true
        } else {
            isEnough = currentTime - lastTime > 0.016  // 16.67 milliseconds per frame
        }
        lastTime = currentTime
        return isEnough
    }

    // MARK: - Delegate Method

    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        if !decelerate {
            rulerViewDelegate?.rulerViewDidChange(self, weight: weightPointed(withRevise: true))
        }
    }

    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
        rulerViewDelegate?.rulerViewDidChange(self, weight: weightPointed(withRevise: true))
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        if isEnoughTimeElapsed() {
            rulerViewDelegate?.rulerViewDidChange(self, weight: weightPointed(withRevise: false))
        }
    }
}
