import Foundation
import QuartzCore
import Testing

@MainActor
@Suite("CADisplayLink")
struct CADisplayLinkTests {
    /// Lets the main actor run other work for `seconds`.
    func spin(_ seconds: Double) async throws {
        try await Task.sleep(for: .seconds(seconds))
    }

    @Test("Calls its closure at its frame rate with increasing timestamps until invalidated")
    func frames() async throws {
        var stamps: [CFTimeInterval] = []
        let link = CADisplayLink { link in stamps.append(link.timestamp) }
        link.preferredFramesPerSecond = 100
        #expect(link.duration == 0.01)
        link.add(to: .main, forMode: .common)
        // At least five frames, however busy the main actor is with other tests.
        for _ in 0..<500 where stamps.count < 5 { try await spin(0.01) }
        #expect(stamps.count >= 5)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        #expect(link.targetTimestamp > link.timestamp)
        link.isPaused = true
        let paused = stamps.count
        try await spin(0.05)
        #expect(stamps.count == paused)
        link.isPaused = false
        link.invalidate()
        try await spin(0.05)
        #expect(stamps.count == paused)
    }

    @Test("Frame rates out of range are held: 0 means 60, above 120 is 120")
    func rates() {
        let link = CADisplayLink { _ in }
        #expect(link.duration == 1.0 / 60)
        link.preferredFramesPerSecond = 1000
        #expect(link.duration == 1.0 / 120)
        link.preferredFramesPerSecond = -3
        #expect(link.duration == 1.0 / 60)
        #expect(CACurrentMediaTime() > 0)
    }
}
