// The real-time graph of the first seed article (GraphView,
// ../shared/seeds/000), ported from its Objective-C line by line to Swift
// with Apple's names: thin tile layers 32 points wide, each tile's image
// drawn on a serial background queue with two padding samples on each
// side, the oldest tile reused for the newest as samples arrive, and the
// tiles' moves animated by their `actions`.
import UIKit

let kLayerWidth = 32
let kPointsPerSample = 1
let kSamplesPerTile = kLayerWidth / kPointsPerSample
let kPaddingSamples = 2
let kMaxVisibleSamples = (320 / kPointsPerSample) + 2 * kPaddingSamples

func tileForSampleIndex(_ sampleIndex: Int) -> Int {
    Int((Float(sampleIndex) / Float(kSamplesPerTile)).rounded(.down))
}

final class GraphView: UIView {
    private var tileLayers: [Int: CALayer] = [:]
    private var samples: [Float] = []
    private var totalSampleCount = 0
    private var tilesToRedraw: Set<Int> = []
    private let redrawQueue = DispatchQueue(label: "MyView tile redraw")

    override init(frame: CGRect) {
        super.init(frame: frame)
        commonInit()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        commonInit()
    }

    func commonInit() {}

    func addRandomSample() {
        addSample(120 * Float.random(in: 0...1))
    }

    /// The article's `addRandomSample`, with the value given (so that a
    /// test can feed a known signal).
    func addSample(_ value: Float) {
        samples.append(value)
        totalSampleCount += 1
        discardSamplesIfNeeded()
        if totalSampleCount % kSamplesPerTile == 1 {
            reuseOldestTileLayerForNewestTile()
        }
        layoutTileLayers()
        queueTilesForRedrawIfAffectedByLastSample()
    }

    func discardSamplesIfNeeded() {
        if samples.count >= 2 * kMaxVisibleSamples {
            samples.removeSubrange(0..<(samples.count - kMaxVisibleSamples))
        }
    }

    func reuseOldestTileLayerForNewestTile() {
        let newestTile = tileForSampleIndex(totalSampleCount - 1)
        let reusableTile = newestTile - tileLayers.count
        guard let layer = tileLayers.removeValue(forKey: reusableTile) else { return }
        tileLayers[newestTile] = layer
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.frame = frameForTile(newestTile)
        CATransaction.commit()
    }

    func queueTilesForRedrawIfAffectedByLastSample() {
        queueTileForRedraw(tileForSampleIndex(totalSampleCount - 1))
        queueTileForRedraw(tileForSampleIndex(totalSampleCount - 1 - kPaddingSamples))
    }

    func queueTileForRedraw(_ tile: Int) {
        tilesToRedraw.insert(tile)
        redrawQueue.async { [weak self] in
            self?.rq_redrawOneTile()
        }
    }

    override func layoutSubviews() {
        adjustTileDictionary()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layoutTileLayers()
        CATransaction.commit()
        for key in tileLayers.keys {
            queueTileForRedraw(key)
        }
    }

    func adjustTileDictionary() {
        let newestTile = tileForSampleIndex(totalSampleCount - 1)
        let tileLayersNeeded = 1 + Int((bounds.size.width / CGFloat(kLayerWidth)).rounded(.up))
        let oldestTile = newestTile - tileLayersNeeded + 1
        var spareLayers = Array(tileLayers.values)
        tileLayers.removeAll()
        for tile in oldestTile...newestTile {
            let layer = spareLayers.popLast() ?? newTileLayer()
            tileLayers[tile] = layer
        }
        for layer in spareLayers {
            layer.removeFromSuperlayer()
        }
    }

    func newTileLayer() -> CALayer {
        let layer = CALayer()
        layer.backgroundColor = UIColor.green.cgColor
        layer.actions = ["contents": NSNull(), "position": newTileLayerPositionAnimation()]
        self.layer.addSublayer(layer)
        return layer
    }

    func newTileLayerPositionAnimation() -> CAAnimation {
        let animation = CABasicAnimation(keyPath: "position")
        animation.duration = 0.1
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        return animation
    }

    func layoutTileLayers() {
        for (key, layer) in tileLayers {
            layer.frame = frameForTile(key)
        }
    }

    func frameForTile(_ tile: Int) -> CGRect {
        let myBounds = bounds
        let x = xForTile(tile, myBounds: myBounds)
        return CGRect(x: x, y: myBounds.origin.y, width: CGFloat(kLayerWidth), height: myBounds.size.height)
    }

    func xForTile(_ tile: Int, myBounds: CGRect) -> CGFloat {
        xForSampleAtIndex(tile * kSamplesPerTile, myBounds: myBounds)
    }

    func xForSampleAtIndex(_ index: Int, myBounds: CGRect) -> CGFloat {
        myBounds.origin.x + myBounds.size.width - CGFloat(kPointsPerSample * (totalSampleCount - index))
    }

    /// Runs on the redraw queue: takes a tile to draw and its points on
    /// the main queue, draws its image here, and hands it back.
    nonisolated func rq_redrawOneTile() {
        let work = DispatchQueue.main.sync {
            MainActor.assumeIsolated { self.dequeueTileToRedraw() }
        }
        guard let (tile, bounds, points) = work else { return }
        let image = rq_image(withBounds: bounds, points: points)
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.setImage(image, forTile: tile) }
        }
    }

    nonisolated func rq_image(withBounds bounds: CGRect, points: [CGPoint]) -> UIImage? {
        UIGraphicsBeginImageContextWithOptions(bounds.size, true, 0)
        let gc = UIGraphicsGetCurrentContext()!
        gc.translateBy(x: -bounds.origin.x, y: -bounds.origin.y)
        UIColor.orange.setFill()
        gc.fill(bounds)
        UIColor.white.setStroke()
        gc.setLineWidth(1.0)
        gc.setLineJoin(.round)
        gc.beginPath()
        gc.addLines(between: points)
        gc.strokePath()
        let image = UIGraphicsGetImageFromCurrentImageContext()
        UIGraphicsEndImageContext()
        return image
    }

    func dequeueTileToRedraw() -> (tile: Int, bounds: CGRect, points: [CGPoint])? {
        guard let tile = tilesToRedraw.popFirst() else { return nil }
        let bounds = frameForTile(tile)
        var sampleIndex = max(0, tile * kSamplesPerTile - kPaddingSamples)
        let endSampleIndex = min(totalSampleCount, tile * kSamplesPerTile + kSamplesPerTile + kPaddingSamples)
        let discardedSampleCount = totalSampleCount - samples.count
        var x = xForSampleAtIndex(sampleIndex, myBounds: self.bounds)
        var points: [CGPoint] = []
        while sampleIndex < endSampleIndex {
            points.append(CGPoint(x: x, y: CGFloat(samples[sampleIndex - discardedSampleCount])))
            sampleIndex += 1
            x += CGFloat(kPointsPerSample)
        }
        return (tile, bounds, points)
    }

    func setImage(_ image: UIImage?, forTile tile: Int) {
        if let layer = tileLayers[tile] {
            layer.contents = image?.cgImage
        }
    }
}
