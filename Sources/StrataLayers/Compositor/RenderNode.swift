import StrataGraphics

/// One layer of a committed render tree: an immutable, `Sendable` copy of a
/// layer's model values, its animations and its sublayers, made by a
/// transaction's commit. The renderer reads only these, never the layers.
///
/// Subtrees that did not change since the previous commit are shared with it,
/// so a commit costs in proportion to what changed.
public final class RenderNode: Sendable {
    /// The layer's identity.
    let id: Int
    /// Changes whenever the layer's own values change.
    let stateVersion: Int
    /// Changes when what the layer draws changes, not when it only moves: a
    /// change of anything but its position, anchor point and transform (its
    /// appearance, bounds, opacity, visibility, z-position, or the order of
    /// its sublayers or mask). The compositor's scroll copies use it.
    let lookVersion: Int
    let state: LayerState
    let animations: [any Animation]
    let sublayers: [RenderNode]
    let mask: RenderNode?

    init(
        id: Int, stateVersion: Int, lookVersion: Int, state: LayerState, animations: [any Animation],
        sublayers: [RenderNode], mask: RenderNode?
    ) {
        self.id = id
        self.stateVersion = stateVersion
        self.lookVersion = lookVersion
        self.state = state
        self.animations = animations
        self.sublayers = sublayers
        self.mask = mask
    }

    /// The number of nodes in this subtree (masks included).
    public var count: Int { 1 + sublayers.reduce(0) { $0 + $1.count } + (mask?.count ?? 0) }

    /// The values on screen at `time`: the model values with the animations applied.
    func presentation(at time: Double) -> LayerState {
        guard !animations.isEmpty else { return state }
        var s = state
        for a in animations { a.apply(at: time, to: &s) }
        return s
    }

    /// Whether an animation may still change what this layer shows after `time`
    /// (one that has not ended, or ends in a fill that holds).
    func isAnimating(at time: Double) -> Bool {
        animations.contains { $0.endTime > time || $0.timing.fillMode == .backwards || $0.timing.fillMode == .both }
    }
}

extension Layer {
    /// The render tree of this layer and everything below it, reusing the
    /// nodes of subtrees that have not changed since the last commit. Runs
    /// pending layout and display on the way.
    func commitNode() -> RenderNode {
        if !isDirty && !subtreeDirty, let lastNode { return lastNode }
        if needsLayoutFlag {
            needsLayoutFlag = false
            layoutSublayers()
        }
        if needsDisplayFlag {
            needsDisplayFlag = false
            display()
        }
        // The marks are cleared before the sublayers are visited: a change made
        // while they commit (a layout that moves a layer already passed) then
        // marks this line again, and the next commit takes it.
        let changed = isDirty || lastNode == nil
        isDirty = false
        subtreeDirty = false
        hasBeenCommitted = true
        let subs = sublayers.map { $0.commitNode() }
        let maskNode = mask?.commitNode()
        if changed || isDirty {
            Layer.versionCounter += 1
            stateVersion = Layer.versionCounter
            let onlyMoved =
                lastNode.map {
                    state.looksTheSame(as: $0.state) && $0.mask?.id == maskNode?.id
                        && $0.sublayers.elementsEqual(subs) { $0.id == $1.id }
                } ?? false
            if !onlyMoved { lookVersion = stateVersion }
        }
        let node = RenderNode(
            id: id, stateVersion: stateVersion, lookVersion: lookVersion, state: state, animations: animationEntries.map(\.animation),
            sublayers: subs, mask: maskNode)
        lastNode = node
        return node
    }

    static var versionCounter = 0
}
