import StrataGraphics
import Testing

@testable import StrataLayers

@MainActor
@Suite struct EmitterLayerTests {
    func dot() -> Image {
        let c = try! Canvas(width: 8, height: 8)
        c.fillColor = .white
        c.fill(c.bounds)
        return c.makeImage()
    }

    func cell(_ change: (inout EmitterCell) -> Void = { _ in }) -> EmitterCell {
        var c = EmitterCell()
        c.birthRate = 10
        c.lifetime = 1
        c.contents = dot()
        change(&c)
        return c
    }

    @Test func birthsAreEvenlySpacedAndLivesEnd() {
        let e = EmitterLayer()
        e.emitterCells = [cell()]
        // Births at 0.1, 0.2, … ; at 0.55 five are alive, at 3.05 the ten born
        // in the last second (2.1 … 3.0).
        #expect(e.particles(atEmitterTime: 0.55).count == 5)
        let later = e.particles(atEmitterTime: 3.05)
        #expect(later.count == 10)
        #expect(later.allSatisfy { $0.birth > 2.05 && $0.birth <= 3.05 })
        #expect(e.particles(atEmitterTime: 0).isEmpty)
        #expect(e.particles(atEmitterTime: -1).isEmpty && e.particles(atEmitterTime: .nan).isEmpty)
        // The layer's multipliers.
        e.birthRate = 2
        e.lifetime = 0.5
        #expect(e.particles(atEmitterTime: 3.05).count == 10)
    }

    @Test func theSameSeedAndTimeGiveTheSameParticles() {
        func make(_ seed: UInt32) -> EmitterLayer {
            let e = EmitterLayer()
            e.seed = seed
            e.emitterShape = .rectangle
            e.emitterSize = Size(width: 100, height: 50)
            e.emitterCells = [
                cell {
                    $0.velocity = 40; $0.velocityRange = 20; $0.emissionRange = 2 * .pi; $0.spinRange = 3; $0.redRange = 0.5
                }
            ]
            return e
        }
        let a = make(1).particles(atEmitterTime: 2.37), b = make(1).particles(atEmitterTime: 2.37)
        #expect(a == b && !a.isEmpty)
        #expect(make(2).particles(atEmitterTime: 2.37) != a)
        // A particle keeps its identity from frame to frame: same birth, moved on.
        let next = make(1).particles(atEmitterTime: 2.38)
        let same = next.first { $0.birth == a.last!.birth }
        #expect(same != nil && same!.position != a.last!.position)
    }

    @Test func motionFollowsVelocityAccelerationSpinScaleAndColourSpeeds() {
        let e = EmitterLayer()
        e.emitterPosition = Point(x: 10, y: 20)
        e.emitterCells = [
            cell {
                $0.birthRate = 1
                $0.lifetime = 10
                $0.velocity = 100
                $0.emissionLongitude = 0
                $0.yAcceleration = 20
                $0.spin = 2
                $0.scale = 1
                $0.scaleSpeed = -0.5
                $0.color = Color(red: 1, green: 1, blue: 1, alpha: 1)
                $0.alphaSpeed = -0.25
            }
        ]
        // Born at 1.0; at 2.0 it is one second old.
        let p = e.particles(atEmitterTime: 2.0).first { $0.birth == 1 }!
        #expect(abs(p.position.x - 110) < 1e-9 && abs(p.position.y - 30) < 1e-9)
        #expect(abs(p.angle - 2) < 1e-9 && abs(p.scale - 0.5) < 1e-9 && abs(p.color.alpha - 0.75) < 1e-9)
        // The layer's velocity, scale and spin multiply.
        e.velocity = 2
        e.scale = 2
        e.spin = 0
        let q = e.particles(atEmitterTime: 2.0).first { $0.birth == 1 }!
        #expect(abs(q.position.x - 210) < 1e-9 && abs(q.scale - 1) < 1e-9 && q.angle == 0)
    }

    @Test func shapesAndModesPlaceBirths() {
        func births(_ shape: EmitterLayer.Shape, _ mode: EmitterLayer.Mode) -> [SIMD3<Double>] {
            let e = EmitterLayer()
            e.emitterPosition = Point(x: 100, y: 100)
            e.emitterZPosition = 0
            e.emitterSize = Size(width: 40, height: 20)
            e.emitterDepth = 10
            e.emitterShape = shape
            e.emitterMode = mode
            e.emitterCells = [
                cell {
                    $0.birthRate = 200; $0.lifetime = 1
                }
            ]
            return e.particles(atEmitterTime: 0.999).map(\.position)
        }
        let c = SIMD3<Double>(100, 100, 0)
        #expect(births(.point, .volume).allSatisfy { $0 == c })
        #expect(Set(births(.line, .points).map(\.x)) == [80, 120])
        #expect(births(.line, .surface).allSatisfy { $0.y == 100 && $0.x >= 80 && $0.x <= 120 })
        #expect(Set(births(.rectangle, .points).map { [$0.x, $0.y] }) == [[80, 90], [120, 90], [80, 110], [120, 110]])
        #expect(
            births(.rectangle, .outline).allSatisfy { p in
                (abs(p.x - 80) < 1e-9 || abs(p.x - 120) < 1e-9 || abs(p.y - 90) < 1e-9 || abs(p.y - 110) < 1e-9)
            })
        let area = births(.rectangle, .surface)
        #expect(area.allSatisfy { $0.x >= 80 && $0.x <= 120 && $0.y >= 90 && $0.y <= 110 })
        #expect(area.contains { abs($0.x - 100) < 15 && abs($0.y - 100) < 5 })
        #expect(births(.circle, .outline).allSatisfy { abs(($0 - c).x * ($0 - c).x + ($0 - c).y * ($0 - c).y - 400) < 1e-6 })
        #expect(births(.circle, .volume).allSatisfy { ($0 - c).x * ($0 - c).x + ($0 - c).y * ($0 - c).y <= 400 + 1e-6 })
        #expect(births(.sphere, .surface).allSatisfy { abs(((($0 - c) * ($0 - c)).sum()) - 400) < 1e-6 })
        #expect(births(.sphere, .volume).allSatisfy { (($0 - c) * ($0 - c)).sum() <= 400 + 1e-6 })
        #expect(births(.cuboid, .points).allSatisfy { abs($0.x - 100) == 20 && abs($0.y - 100) == 10 && abs($0.z) == 5 })
        #expect(births(.cuboid, .volume).allSatisfy { abs($0.x - 100) <= 20 && abs($0.y - 100) <= 10 && abs($0.z) <= 5 })
        #expect(
            births(.cuboid, .surface).allSatisfy { abs(abs($0.x - 100) - 20) < 1e-9 || abs(abs($0.y - 100) - 10) < 1e-9 || abs(abs($0.z) - 5) < 1e-9 }
        )
    }

    @Test func badRatesLifetimesAndScalesEmitNothing() {
        for change: (inout EmitterCell) -> Void in [
            { $0.birthRate = -5 }, { $0.lifetime = -1 }, { $0.birthRate = .nan },
            { $0.lifetime = .infinity }, { $0.isEnabled = false },
        ] {
            let e = EmitterLayer()
            e.emitterCells = [cell(change)]
            #expect(e.particles(atEmitterTime: 5).isEmpty)
        }
        let e = EmitterLayer()
        e.emitterCells = [cell { $0.scale = -2 }]
        #expect(e.particles(atEmitterTime: 2).allSatisfy { $0.scale == 0 })
        e.birthRate = -1
        #expect(e.particles(atEmitterTime: 2).isEmpty)
    }

    @Test func theParticleBudgetHolds() {
        let e = EmitterLayer()
        e.emitterCells = [
            cell {
                $0.birthRate = 1e9; $0.lifetime = 1e6
            }
        ]
        e.maximumParticles = 5000
        let ps = e.particles(atEmitterTime: 100)
        #expect(ps.count == 5000)
        // The newest are kept.
        #expect(ps.allSatisfy { $0.birth > 99.99 })
    }

    @Test func renderModesOrderTheParticles() {
        let e = EmitterLayer()
        e.emitterShape = .cuboid
        e.emitterMode = .volume
        e.emitterSize = Size(width: 10, height: 10)
        e.emitterDepth = 100
        e.emitterCells = [cell()]
        e.renderMode = .oldestFirst
        #expect(e.particles(atEmitterTime: 2).map(\.birth) == e.particles(atEmitterTime: 2).map(\.birth).sorted())
        e.renderMode = .oldestLast
        #expect(e.particles(atEmitterTime: 2).map(\.birth) == e.particles(atEmitterTime: 2).map(\.birth).sorted(by: >))
        e.renderMode = .backToFront
        let z = e.particles(atEmitterTime: 2).map(\.position.z)
        #expect(z == z.sorted() && Set(z).count > 1)
    }

    @Test func subCellsAreEmittedFromTheirParents() {
        let e = EmitterLayer()
        e.emitterCells = [
            cell {
                $0.birthRate = 1
                $0.lifetime = 2
                $0.velocity = 50
                $0.emitterCells = [
                    self.cell {
                        $0.birthRate = 4; $0.lifetime = 0.1
                    }
                ]
            }
        ]
        // The parent born at 1.0 is at x = 25 at 1.5; its child born then (the
        // second, at 1.5) is there, 0.05 s old, not moving.
        let ps = e.particles(atEmitterTime: 1.55)
        let children = ps.filter { $0.cell == [0, 0] }
        #expect(children.count == 1)
        #expect(abs(children[0].position.x - 25) < 1e-9 && abs(children[0].birth - 1.5) < 1e-9)
        #expect(ps.filter { $0.cell == [0] }.count == 1)
    }

    @Test func anEmitterRendersTheSameFrameForTheSameTime() {
        func frame(additive: Bool) -> (LayerHost, Image) {
            let host = try! LayerHost(width: 80, height: 80, backgroundColor: .black)
            let e = EmitterLayer()
            e.frame = host.rootLayer.bounds
            e.emitterPosition = Point(x: 40, y: 40)
            e.renderMode = additive ? .additive : .unordered
            e.emitterCells = [
                cell {
                    $0.birthRate = 50
                    $0.lifetime = 2
                    $0.velocity = 15
                    $0.emissionRange = 2 * .pi
                    $0.color = Color(red: 0.5, green: 0.2, blue: 0.1, alpha: 0.5)
                }
            ]
            host.rootLayer.addSublayer(e)
            host.renderFrame()
            host.advance(by: 1.5)
            return (host, host.makeImage())
        }
        let (host, a) = frame(additive: false)
        #expect(a == frame(additive: false).1)
        // Particles show, and more where additive ones overlap.
        let b = Bitmap(image: a), add = Bitmap(image: frame(additive: true).1)
        #expect(b[40, 40] != Pixel(r: 0, g: 0, b: 0, a: 255))
        #expect(add[40, 40].r > b[40, 40].r)
        // Later frames move them, and the damage covers them.
        host.advance()
        #expect(host.makeImage() != a)
        #expect(matchesAFullRedraw(host, background: .black))
    }
}
