import StrataGraphics
import StrataTestSupport
import Testing

@testable import StrataLayers

@MainActor
@Suite struct ScrollLayerTests {
    /// A 100 × 100 scroll layer at (0, 0) over a 400 × 400 content layer with
    /// a red square at (200, 200).
    func scene() -> (LayerHost, ScrollLayer, Layer, Layer) {
        let host = try! LayerHost(width: 100, height: 100)
        let scroll = ScrollLayer()
        scroll.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let content = layer(Rect(x: 0, y: 0, width: 400, height: 400), nil)
        let square = layer(Rect(x: 200, y: 200, width: 50, height: 50), .red)
        content.addSublayer(square)
        scroll.addSublayer(content)
        host.rootLayer.addSublayer(scroll)
        host.renderFrame()
        return (host, scroll, content, square)
    }

    @Test func scrollingMovesTheSublayersUnderTheBoundsAndClipsThem() {
        let (host, scroll, _, _) = scene()
        #expect(scroll.masksToBounds)
        #expect(near(Bitmap(image: host.makeImage())[50, 50], white, 2))
        Transaction.disableActions = true
        scroll.scroll(to: Point(x: 180, y: 190))
        host.renderFrame()
        let b = Bitmap(image: host.makeImage())
        #expect(near(b[25, 15], red, 2))  // the square's top left is at (20, 10)
        #expect(near(b[15, 15], white, 2))
        #expect(scroll.bounds.origin == Point(x: 180, y: 190))
        #expect(matchesAFullRedraw(host))
    }

    @Test func theScrollModeLimitsTheAxes() {
        let (_, scroll, _, _) = scene()
        scroll.scrollMode = .horizontally
        scroll.scroll(to: Point(x: 30, y: 40))
        #expect(scroll.bounds.origin == Point(x: 30, y: 0))
        scroll.scrollMode = .vertically
        scroll.scroll(to: Point(x: 70, y: 40))
        #expect(scroll.bounds.origin == Point(x: 30, y: 40))
        scroll.scrollMode = .none
        scroll.scroll(to: Point(x: 1, y: 1))
        scroll.scroll(toRect: Rect(x: 300, y: 300, width: 10, height: 10))
        #expect(scroll.bounds.origin == Point(x: 30, y: 40))
        scroll.scrollMode = .both
        scroll.scroll(to: Point(x: .nan, y: .infinity))
        #expect(scroll.bounds.origin == Point(x: 30, y: 40))
    }

    @Test func scrollToRectMovesAsLittleAsItCan() {
        let (_, scroll, _, _) = scene()
        // Already visible: no move.
        scroll.scroll(toRect: Rect(x: 10, y: 10, width: 20, height: 20))
        #expect(scroll.bounds.origin == .zero)
        // Below and to the right: its far edges meet the bounds' far edges.
        scroll.scroll(toRect: Rect(x: 150, y: 250, width: 20, height: 30))
        #expect(scroll.bounds.origin == Point(x: 70, y: 180))
        // Above and to the left: its near edges meet the near edges.
        scroll.scroll(toRect: Rect(x: 20, y: 30, width: 10, height: 10))
        #expect(scroll.bounds.origin == Point(x: 20, y: 30))
        // Larger than the bounds: aligned to its minimum.
        scroll.scroll(toRect: Rect(x: 5, y: 300, width: 300, height: 10))
        #expect(scroll.bounds.origin == Point(x: 5, y: 210))
        // Null and non-finite rects are ignored.
        scroll.scroll(toRect: .null)
        scroll.scroll(toRect: Rect(x: .nan, y: 0, width: 1, height: 1))
        #expect(scroll.bounds.origin == Point(x: 5, y: 210))
    }

    @Test func anyLayerScrollsItsEnclosingScrollLayer() {
        let (_, scroll, _, square) = scene()
        // scroll(point:) in the square's coordinates: its (10, 10) to the top left.
        square.scroll(point: Point(x: 10, y: 10))
        #expect(scroll.bounds.origin == Point(x: 210, y: 210))
        scroll.scroll(to: .zero)
        square.scrollRectToVisible(square.bounds)
        #expect(scroll.bounds.origin == Point(x: 150, y: 150))
        // Outside any scroll layer these do nothing.
        let loose = Layer()
        loose.scroll(point: Point(x: 5, y: 5))
        loose.scrollRectToVisible(Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(loose.bounds.origin == .zero)
    }

    @Test func visibleRectIsThePartTheScrollLayerShows() {
        let (_, scroll, content, square) = scene()
        #expect(content.visibleRect == Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(square.visibleRect.isNull)
        scroll.scroll(to: Point(x: 220, y: 180))
        #expect(square.visibleRect == Rect(x: 20, y: 0, width: 30, height: 50))
        #expect(content.visibleRect == Rect(x: 220, y: 180, width: 100, height: 100))
        // Without a scroll layer: the bounds.
        let loose = layer(Rect(x: 0, y: 0, width: 30, height: 40), nil)
        #expect(loose.visibleRect == Rect(x: 0, y: 0, width: 30, height: 40))
    }
}
