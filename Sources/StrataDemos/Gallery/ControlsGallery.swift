import Foundation
import StrataControls
import StrataGraphics
import StrataLayers
import StrataText

/// The controls' pictures for `strata gallery` (`Gallery.pictures`).
@MainActor
public enum ControlsGallery {
    /// The feed at scale 2, at rest: the first rows drawn at once (as an
    /// infinitely fast pool would), so the picture never depends on the
    /// pool's speed (drawn on the pool, which rows had their drawings in
    /// mid-fling varied from run to run). The feed's tests and benchmarks
    /// measure the pool's part.
    public static func feedAtRest() throws -> LayerHost {
        let rest = try FeedDriver(posts: 10_000, scale: 2, drawsCellsSynchronously: true)
        rest.settle()
        return rest.host
    }

    /// The feed mid-fling: a quarter of a second after an 8,000 pt/s flick
    /// (its cells drawn at once, as at rest).
    public static func feedMidFling() throws -> LayerHost {
        let driver = try FeedDriver(posts: 10_000, scale: 2, drawsCellsSynchronously: true)
        driver.settle()
        driver.fling(8000)
        for _ in 0..<15 { driver.frame() }
        return driver.host
    }

    /// The feed scrolled until a link shows, then held down on it.
    public static func feedPressed() throws -> LayerHost {
        let pressed = try FeedDriver(posts: 10_000, scale: 2)
        pressed.settle()
        var tries = 0
        while pressed.visibleEntity([.link]) == nil && tries < 50 {
            pressed.list.setContentOffset(Point(x: 0, y: pressed.list.contentOffset.y + 200), animated: false)
            pressed.settle()
            tries += 1
        }
        if let (_, _, at) = pressed.visibleEntity([.link]) {
            pressed.dispatcher.send(.pointer(PointerEvent(.down, at: at, timestamp: pressed.clock.now)))
            // Until the pressed row's new drawing is in (two minutes at most:
            // the pool runs below the main thread, and a busy machine holds
            // it back).
            let deadline = DispatchTime.now().uptimeNanoseconds + 120_000_000_000
            repeat {
                pressed.frame()
                if pressed.list.cellsByRow.values.allSatisfy({ !$0.needsRedrawPending }) { break }
                usleep(2000)
            } while DispatchTime.now().uptimeNanoseconds < deadline
            pressed.settle()
        }
        return pressed.host
    }

    /// The feed in sections a day: scrolled into the second day, its header
    /// pinned at the top and the next day's coming up.
    public static func feedSections() throws -> LayerHost {
        let days = try FeedDriver(posts: 10_000, scale: 2)
        days.controller.postsPerDay = 6
        days.list.reloadData()
        days.settle()
        days.list.scrollToRow(at: IndexPath(row: 2, section: 1), at: .top, animated: false)
        days.list.setContentOffset(Point(x: 0, y: days.list.contentOffset.y + 120), animated: false)
        days.settle()
        return days.host
    }

    /// Three weight rulers (0.1 kg a tick, 0 to 300 kg): at rest on 72.5,
    /// mid-fling a third of a second after a 2,400 pt/s flick, and dragged
    /// past its minimum (stretched, the value held at 0).
    public static func rulers() throws -> LayerHost {
        let host = try LayerHost(width: 480, height: 330, scale: 1, backgroundColor: Color(white: 0.93))
        let root = View(frame: Rect(x: 0, y: 0, width: 480, height: 330))
        let dispatcher = InputDispatcher(rootView: root, host: host)
        var rulers: [RulerView] = []
        for (i, title) in ["At rest", "Mid-fling", "Past the minimum"].enumerated() {
            let label = TextLayer()
            label.anchorPoint = .zero
            label.frame = Rect(x: 16, y: 10 + Double(i) * 106, width: 300, height: 18)
            label.string = title
            label.fontSize = 13
            label.foregroundColor = Color(white: 0.35)
            root.layer.addSublayer(label)
            let r = RulerView(
                frame: Rect(x: 16, y: 30 + Double(i) * 106, width: 448, height: 80),
                scale: try RulerScale(step: 0.1, minimum: 0, maximum: 300))
            r.backgroundColor = .white
            r.layer.cornerRadius = 10
            r.unit = "kg"
            r.showsHorizontalScrollIndicator = true
            root.addSubview(r)
            rulers.append(r)
        }
        try rulers[0].setValue(72.5, animated: false)
        try rulers[1].setValue(72.5, animated: false)
        try rulers[2].setValue(1.2, animated: false)
        host.renderFrame()
        // A flick to the left on the second ruler (larger values come in),
        // a third of a second of its motion.
        let flick = try GestureScript.fling(from: Point(x: 300, y: 176), velocity: Point(x: -2400, y: 0))
        var frames = 0
        try flick.play(
            on: dispatcher, host: host,
            settle: {
                frames += 1
                return frames >= 20
            })
        // The third held past its minimum.
        try GestureScript.drag(from: Point(x: 150, y: 282), to: Point(x: 410, y: 282), duration: 0.4, release: false)
            .play(on: dispatcher, host: host)
        host.renderFrame()
        return host
    }
}
