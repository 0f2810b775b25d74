import StrataGraphics

/// An animation attached to a layer.
struct AnimationEntry {
    let key: String
    var animation: any Animation
    /// The completion groups of the transactions it was added in.
    let groups: [CompletionGroup]
    var ended = false
}

extension Layer {
    // MARK: Animations

    /// Adds an animation (a copy of it) for `key`, replacing one already there.
    /// A `beginTime` of 0 means now; a duration of 0 means the transaction's
    /// animation duration. A nil key gets a unique one.
    public func add(_ animation: any Animation, forKey key: String?) {
        var a = animation
        let now = currentMediaTime
        if a.timing.beginTime == 0 { a.timing.beginTime = now }
        if a.timing.duration <= 0 || !a.timing.duration.isFinite {
            a.timing.duration = Transaction.animationDuration
        }
        let key = key ?? "animation-\(Layer.nextAnimationKey())"
        if let i = animationEntries.firstIndex(where: { $0.key == key }) {
            let old = animationEntries.remove(at: i)
            finish(old, finished: false)
        }
        let groups = Transaction.openCompletionGroups
        for g in groups { g.add() }
        animationEntries.append(AnimationEntry(key: key, animation: a, groups: groups))
        markDirty()
        AnimationRegistry.animated[id] = WeakLayer(self)
    }

    static var animationKeyCounter = 0
    static func nextAnimationKey() -> Int {
        animationKeyCounter += 1
        return animationKeyCounter
    }

    /// The animation for `key` (a copy), or nil.
    public func animation(forKey key: String) -> (any Animation)? {
        animationEntries.first { $0.key == key }?.animation
    }

    /// The keys of the attached animations, in the order they were added.
    public var animationKeys: [String] { animationEntries.map(\.key) }

    /// Removes the animation for `key`; its completion is told it did not finish.
    public func removeAnimation(forKey key: String) {
        guard let i = animationEntries.firstIndex(where: { $0.key == key }) else { return }
        let old = animationEntries.remove(at: i)
        finish(old, finished: false)
        markDirty()
    }

    public func removeAllAnimations() {
        let old = animationEntries
        animationEntries.removeAll()
        for e in old { finish(e, finished: false) }
        markDirty()
    }

    func finish(_ entry: AnimationEntry, finished: Bool) {
        guard !entry.ended else { return }
        entry.animation.completion?(finished)
        for g in entry.groups { g.finishOne() }
    }

    /// Ends the animations whose active time is over at `time`: their
    /// completions run, and those removed on completion go.
    func endAnimations(at time: Double) {
        var changed = false
        var i = 0
        while i < animationEntries.count {
            let e = animationEntries[i]
            if !e.ended && e.animation.endTime <= time {
                animationEntries[i].ended = true
                finish(e, finished: true)
                if e.animation.isRemovedOnCompletion {
                    // The completion may have changed the list.
                    if let j = animationEntries.firstIndex(where: { $0.key == e.key }) { animationEntries.remove(at: j) }
                    changed = true
                    continue
                }
            }
            i += 1
        }
        if changed { markDirty() }
    }

    /// The media time of this layer's host's clock (or the system's).
    public var currentMediaTime: Double {
        rootLayer.host?.clock.now ?? SystemClock.shared.now
    }

    // MARK: Presentation

    /// The values on screen at `time`: the model values with the animations applied.
    func presentationState(at time: Double) -> LayerState {
        var s = state
        for e in animationEntries { e.animation.apply(at: time, to: &s) }
        return s
    }

    func presentationValue(forKey key: String) -> (any AnimatableValue)? {
        if animationEntries.isEmpty { return state.value(forKeyPath: key) }
        return presentationState(at: currentMediaTime).value(forKeyPath: key)
    }

    /// A copy of the layer as it is on screen now (`presentation()`): the model
    /// values with the running animations applied at the current media time.
    /// It has no sublayers, and changing it changes nothing on screen.
    public func presentation() -> Self {
        let copy = Self(layer: self)
        copy.state = presentationState(at: currentMediaTime)
        copy.hasBeenCommitted = false
        return copy
    }

    /// The model layer: this layer itself (`model()`).
    public func model() -> Self { self }

    // MARK: Actions

    func lookUpAction(forKey key: String) -> LayerAction? {
        if let delegate, let a = delegate.action(for: self, forKey: key) { return a }
        if let a = actions[key] { return a }
        return Self.defaultAction(forKey: key)
    }

    /// Runs the action for a change of `key` from presentation value `old`.
    func runAction(forKey key: String, from old: any AnimatableValue) {
        guard let action = action(forKey: key) else { return }
        switch action {
        case .none:
            return
        case .run(let body):
            body(self, key)
        case .animation(let animation):
            var a = animation
            if var basic = a as? BasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil {
                basic.fromValue = old
                if basic.timingFunction == nil { basic.timingFunction = Transaction.animationTimingFunction ?? .default }
                a = basic
            }
            if a.timing.duration <= 0 { a.timing.duration = Transaction.animationDuration }
            guard a.timing.duration > 0 else { return }
            add(a, forKey: key)
        }
    }
}

/// A weak reference to a layer.
struct WeakLayer {
    weak var layer: Layer?
    init(_ layer: Layer) { self.layer = layer }
}

/// The layers with animations, so that a frame can end the ones that are over.
@MainActor
enum AnimationRegistry {
    static var animated: [Int: WeakLayer] = [:]

    /// Ends every layer's animations that are over at its own clock's time.
    static func endAnimations() {
        for (id, ref) in animated {
            guard let layer = ref.layer else {
                animated[id] = nil
                continue
            }
            layer.endAnimations(at: layer.currentMediaTime)
            if layer.animationEntries.isEmpty { animated[id] = nil }
        }
    }
}
