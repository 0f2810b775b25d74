// The Health-style line chart of the fifth seed article ("swift:打造你自己的折线图",
// ../shared/seeds/004), ported line by line from its Swift 1 code to
// today's Swift with Apple's own renamings: `CGContextMoveToPoint(context,
// x, y)` is `context.move(to:)`, `drawRect` is `draw(_:)`,
// `NSFontAttributeName` is `.font`. The article leaves its constants and
// `calculateOffset` out; they are filled in here as it describes them.
import UIKit

let kBottomMargin: CGFloat = 30
let kUnitLabelHeight: CGFloat = 5
let kCircleRadiusLength: CGFloat = 5
let kBaseLabelString = "Day"
let kLabelFont = UIFont.systemFont(ofSize: 11)
let kLabelFontColor = UIColor.white

/// The chart: the line, its circles and the x axis drawn with Core
/// Graphics in `draw(_:)`; the white fill under the line is a gradient
/// layer masked by a shape layer, as the article builds it.
final class LineChartView: UIView {
    var kUnitLabelWidth: CGFloat!
    var kTotalYValue: CGFloat!
    let progressLayer = CAShapeLayer()
    let gradientLayer = CAGradientLayer()

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .clear
        contentMode = .redraw
        gradientLayer.startPoint = CGPoint(x: 0.5, y: 1.0)
        gradientLayer.endPoint = CGPoint(x: 0.5, y: 0.0)
        gradientLayer.colors = [
            UIColor(red: 1.0, green: 1.0, blue: 1.0, alpha: 0.0).cgColor,
            UIColor(red: 1.0, green: 1.0, blue: 1.0, alpha: 0.5).cgColor,
            UIColor(red: 1.0, green: 1.0, blue: 1.0, alpha: 0.8).cgColor,
        ]
        gradientLayer.mask = progressLayer
        layer.addSublayer(gradientLayer)
    }

    required init?(coder aDecoder: NSCoder) {
        super.init(coder: aDecoder)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        kUnitLabelWidth = (bounds.width - kBottomMargin * 2) / 5
        kTotalYValue = bounds.height - kBottomMargin * 2
        gradientLayer.frame = CGRect(x: 0, y: 0, width: bounds.size.width, height: bounds.size.height)
        progressLayer.frame = gradientLayer.bounds
        // The area under the line, closed along the x axis: the mask.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: calculateX(0), y: bounds.height - kBottomMargin))
        for index in 0..<6 {
            path.addLine(to: CGPoint(x: calculateX(index), y: calculateY(index)))
        }
        path.addLine(to: CGPoint(x: calculateX(5), y: bounds.height - kBottomMargin))
        path.closeSubpath()
        progressLayer.path = path
    }

    func calculateX(_ i: Int) -> CGFloat {
        let x = kBottomMargin + CGFloat(i) * kUnitLabelWidth!
        return x
    }

    func calculateY(_ i: Int) -> CGFloat {
        var y: CGFloat = 0
        switch i {
        case 0:
            y = kTotalYValue! * 0.5
        case 1:
            y = kTotalYValue! * 0.3
        case 2:
            y = kTotalYValue! * 0.7
        case 3:
            y = kTotalYValue! * 0.7
        case 4:
            y = kTotalYValue! * 0.2
        case 5:
            y = kTotalYValue! * 0.8
        default:
            y = 0
        }
        return y + kBottomMargin
    }

    /// How far along the line from one point to the next its circle's rim
    /// is: the line stops there instead of crossing the circle.
    func calculateOffset(_ x1: CGFloat, _ y1: CGFloat, _ x2: CGFloat, _ y2: CGFloat, _ radius: CGFloat) -> (offsetX: CGFloat, offsetY: CGFloat) {
        let dx = x2 - x1, dy = abs(y2 - y1)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return (0, 0) }
        return (radius * dx / length, radius * dy / length)
    }

    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }

        context.setStrokeColor(UIColor.white.cgColor)
        context.setLineWidth(1.0)
        context.move(to: CGPoint(x: kBottomMargin, y: rect.height - kBottomMargin))
        context.addLine(to: CGPoint(x: rect.width - kBottomMargin, y: rect.height - kBottomMargin))

        context.setFillColor(UIColor.orange.cgColor)

        var prePoint = CGPoint(x: calculateX(0), y: calculateY(0))

        for index in 0..<6 {
            let x = calculateX(index)
            let y = calculateY(index)
            let textY = rect.height - kBottomMargin + 3

            context.move(to: CGPoint(x: x, y: rect.height - kBottomMargin))
            context.addLine(to: CGPoint(x: x, y: rect.height - kBottomMargin + kUnitLabelHeight))

            let labelString = NSString(string: "\(kBaseLabelString) \(index)")
            labelString.draw(
                at: CGPoint(x: x + kUnitLabelHeight, y: textY), withAttributes: [.font: kLabelFont, .foregroundColor: kLabelFontColor])

            context.strokePath()

            context.move(to: CGPoint(x: x, y: y))
            let path = UIBezierPath(
                arcCenter: CGPoint(x: x, y: y), radius: kCircleRadiusLength, startAngle: CGFloat(0.0), endAngle: CGFloat(2 * Double.pi),
                clockwise: true)
            context.addPath(path.cgPath)

            context.strokePath()

            let offset = calculateOffset(prePoint.x, prePoint.y, x, y, kCircleRadiusLength)
            if prePoint.x != x {
                if y > prePoint.y {
                    context.move(to: CGPoint(x: prePoint.x + offset.offsetX, y: prePoint.y + offset.offsetY))
                    context.addLine(to: CGPoint(x: x - offset.offsetX, y: y - offset.offsetY))
                } else if y < prePoint.y {
                    context.move(to: CGPoint(x: prePoint.x + offset.offsetX, y: prePoint.y - offset.offsetY))
                    context.addLine(to: CGPoint(x: x - offset.offsetX, y: y + offset.offsetY))
                } else {
                    context.move(to: CGPoint(x: prePoint.x + offset.offsetX, y: prePoint.y))
                    context.addLine(to: CGPoint(x: x - offset.offsetX, y: y))
                }

                context.strokePath()

                prePoint = CGPoint(x: x, y: y)
            }
        }
    }
}
