import StrataGraphics

/// An animation attached to a layer.
struct AnimationEntry {
    let key: String
    let animation: any Animation
    /// The animation's completion, kept here so that ending the animation
    /// need not read the animation again.
    let completion: (@MainActor @Sendable (Bool) -> Void)?
    /// The completion groups of the transactions it was added in.
    let groups: [CompletionGroup]
    var ended = false
}

extension Layer {
    // MARK: Animations

    /// `add` for an animation whose type is known, without opening an existential.
    func add<A: Animation>(concrete animation: A, forKey key: String?) {
        var a = animation
        prepareToAdd(&a.timing)
        attach(a, forKey: key)
    }

    /// A begin time of 0 becomes now; a duration of 0, the transaction's.
    func prepareToAdd(_ timing: inout MediaTiming) {
        if timing.beginTime == 0 { timing.beginTime = currentMediaTime }
        if timing.duration <= 0 || !timing.duration.isFinite {
            timing.duration = Transaction.animationDuration
        }
    }

    func attach(_ animation: any Animation, forKey key: String?) {
        let key = key ?? "animation-\(Layer.nextAnimationKey())"
        if let i = entryIndex(forKey: key) {
            let old = animationEntries.remove(at: i)
            finish(old, finished: false)
        }
        let groups = Transaction.openCompletionGroups
        for g in groups { g.add() }
        animationEntries.append(
            AnimationEntry(
                key: key, animation: animation, completion: animation.completion,
                groups: groups))
        markDirty()
        AnimationRegistry.register(self)
    }

    /// Where the animation for `key` is in `animationEntries` (compared in
    /// place, without copying entries).
    func entryIndex(forKey key: String) -> Int? {
        for i in animationEntries.indices where animationEntries[i].key == key { return i }
        return nil
    }

    static var animationKeyCounter = 0
    static func nextAnimationKey() -> Int {
        animationKeyCounter += 1
        return animationKeyCounter
    }

    func finish(_ entry: AnimationEntry, finished: Bool) {
        guard !entry.ended else { return }
        entry.completion?(finished)
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
                    if let j = entryIndex(forKey: e.key) { animationEntries.remove(at: j) }
                    changed = true
                    continue
                }
            }
            i += 1
        }
        if changed { markDirty() }
    }

    /// The clock of the host this layer's tree is shown in, if any. Found by
    /// walking to the root, and remembered until a tree changes shape
    /// anywhere (`Layer.treeGeneration`).
    var clock: (any MediaClock)? {
        let generation = Layer.treeGeneration.load(ordering: .relaxed)
        if clockCache.generation == generation { return clockCache.clock }
        let found = rootLayer.host?.clock
        clockCache = (generation, found)
        return found
    }

    // MARK: Presentation

    /// The values on screen at `time`: the model values with the animations applied.
    func presentationState(at time: Double) -> LayerState {
        var s = state
        for i in animationEntries.indices { animationEntries[i].animation.apply(at: time, to: &s) }
        return s
    }

    /// The value of `key` on screen now, through `accessor` (the key's).
    /// Only the animations that can touch the key are evaluated.
    func presentationValue(forKey key: String, accessor: LayerState.Accessor) -> (any AnimatableValue)? {
        var s: LayerState?
        var now = 0.0
        for i in animationEntries.indices {
            let animation = animationEntries[i].animation
            guard animation.affects(keyPath: key) else { continue }
            if s == nil {
                s = state
                now = currentMediaTime
            }
            animation.apply(at: now, to: &s!)
        }
        return accessor.get(s ?? state)
    }

    /// Takes `model`'s values as they are on screen now, animations applied,
    /// as this layer's own (a front end's `presentation()` copy).
    package func adoptPresentation(of model: Layer) {
        state = model.presentationState(at: model.currentMediaTime)
        hasBeenCommitted = false
        markDirty()
    }

    /// Whether a commit has taken the layer to a host's render tree.
    package var wasCommitted: Bool { hasBeenCommitted }

    // MARK: Actions

    func lookUpAction(forKey key: String) -> LayerAction? {
        if let delegate, let a = delegate.action(for: self, forKey: key) { return a }
        if let a = actions[key] { return a }
        return Self.defaultAction(forKey: key)
    }

    /// Runs the action for a change of `key` from presentation value `old`.
    func runAction(forKey key: String, from old: any AnimatableValue) {
        let found = bridgeFlag ? (self as? any LayerFrontEnd)?.frontEndAction(forKey: key) ?? lookUpAction(forKey: key) : lookUpAction(forKey: key)
        guard let action = found else { return }
        switch action {
        case .noAction:
            return
        case .run(let body):
            body(self, key)
        case .animation(let animation):
            var a = animation
            if var basic = a as? BasicAnimation {
                if basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil {
                    basic.fromValue = old
                    if basic.timingFunction == nil { basic.timingFunction = Transaction.animationTimingFunction ?? .default }
                }
                if basic.timing.duration <= 0 { basic.timing.duration = Transaction.animationDuration }
                guard basic.timing.duration > 0 else { return }
                add(concrete: basic, forKey: key)
                return
            }
            if a.timing.duration <= 0 { a.timing.duration = Transaction.animationDuration }
            guard a.timing.duration > 0 else { return }
            add(a, forKey: key)
        }
    }
}

/// The layers with animations, so that a frame can end the ones that are over.
///
/// The registry holds its layers strongly and lets go of one when it is the
/// only owner left (nothing else could see the layer or its animations).
/// Weak references would do the same, but a weakly referenced object keeps
/// its reference count in a side table, which makes every retain and release
/// of it several times slower, and layers are retained and released all the
/// time.
@MainActor
enum AnimationRegistry {
    static var animated: [ObjectIdentifier: Layer] = [:]
    /// The size at which registering next prunes, so that layers are let go
    /// even when no host renders frames (amortised: it doubles).
    static var pruneAt = 64

    static func register(_ layer: Layer) {
        if !layer.isRegisteredForAnimations {
            layer.isRegisteredForAnimations = true
            animated[ObjectIdentifier(layer)] = layer
            if animated.count >= pruneAt {
                prune()
                pruneAt = max(64, 2 * animated.count)
            }
        }
    }

    /// Lets go of the layers only the registry still holds.
    static func prune() {
        for key in Array(animated.keys) { _ = letGoIfOnlyOwner(key) }
    }

    /// Ends every layer's animations that are over at its own clock's time.
    static func endAnimations() {
        for key in Array(animated.keys) {
            // A completion may have removed layers from the registry.
            guard animated[key] != nil, !letGoIfOnlyOwner(key), let layer = animated[key] else { continue }
            layer.endAnimations(at: layer.currentMediaTime)
            if layer.animationEntries.isEmpty { forget(key) }
        }
    }

    /// Forgets the layer at `key` if nothing else holds it; says whether it did.
    private static func letGoIfOnlyOwner(_ key: ObjectIdentifier) -> Bool {
        guard isKnownUniquelyReferenced(&animated[key]!) else { return false }
        forget(key)
        return true
    }

    private static func forget(_ key: ObjectIdentifier) {
        animated.removeValue(forKey: key)?.isRegisteredForAnimations = false
    }
}

extension LayerProperties {
    /// Adds an animation (a copy of it) for `key`, replacing one already there.
    /// A `beginTime` of 0 means now; a duration of 0 means the transaction's
    /// animation duration. A nil key gets a unique one.
    ///
    /// An animation of a key path the layer does not have, or with values of
    /// another type than the property's, is added but changes nothing on
    /// screen (as in Core Animation); a debug build stops at an assertion
    /// naming it (see `KeyPathDiagnostics`).
    @_disfavoredOverload public func add(_ animation: any Animation, forKey key: String?) {
        KeyPathDiagnostics.check(animation, for: state, layer: name.map { "layer '\($0)'" } ?? "a \(type(of: self))")
        var a = animation
        prepareToAdd(&a.timing)
        attach(a, forKey: key)
    }

    /// The animation for `key` (a copy), or nil.
    @_disfavoredOverload public func animation(forKey key: String) -> (any Animation)? {
        entryIndex(forKey: key).map { animationEntries[$0].animation }
    }

    /// The keys of the attached animations, in the order they were added.
    @_disfavoredOverload public var animationKeys: [String] { animationEntries.map(\.key) }

    /// Removes the animation for `key`; its completion is told it did not finish.
    @_disfavoredOverload public func removeAnimation(forKey key: String) {
        guard let i = entryIndex(forKey: key) else { return }
        let old = animationEntries.remove(at: i)
        finish(old, finished: false)
        markDirty()
    }

    @_disfavoredOverload public func removeAllAnimations() {
        let old = animationEntries
        animationEntries.removeAll()
        for e in old { finish(e, finished: false) }
        markDirty()
    }

    /// The media time of this layer's host's clock (or the system's).
    @_disfavoredOverload public var currentMediaTime: Double {
        clock?.now ?? SystemClock.shared.now
    }

    /// A copy of the layer as it is on screen now (`presentation()`): the model
    /// values with the running animations applied at the current media time.
    /// It has no sublayers, and changing it changes nothing on screen.
    @_disfavoredOverload public func presentation() -> Self {
        guard let copy = Self(coder: LayerCopyCoder(model: self)) else {
            preconditionFailure("\(Self.self).init?(coder:) returned nil for a LayerCopyCoder: presentation() needs a copy")
        }
        copy.state = presentationState(at: currentMediaTime)
        copy.hasBeenCommitted = false
        return copy
    }

    /// The model layer: this layer itself (`model()`).
    @_disfavoredOverload public func model() -> Self { self }
}
