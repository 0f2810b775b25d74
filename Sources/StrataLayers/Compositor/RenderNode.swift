internal import CPixels
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
        let subs = commitSublayers()
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

    /// The sublayers' render nodes. A commit is bound by memory: each layer
    /// it visits is a few cache lines of its own, fetched one layer after
    /// another as the walk reaches it. Long lists ask for the lines of the
    /// layer a few places ahead while this one commits, so that they arrive
    /// in the meantime.
    private func commitSublayers() -> [RenderNode] {
        // A copy: committing a sublayer may lay it out, and its layout may
        // change this list.
        let list = sublayers
        let n = list.count
        guard n > 4 else { return list.map { $0.commitNode() } }
        return list.withUnsafeBufferPointer { layers in
            [RenderNode](unsafeUninitializedCapacity: n) { nodes, count in
                for i in 0..<n {
                    if i + Self.prefetchDistance < n {
                        strata_prefetch_lines(Unmanaged.passUnretained(layers[i + Self.prefetchDistance]).toOpaque(), Self.prefetchLines)
                    }
                    // Two places ahead the layer's own lines have arrived:
                    // what they point to (its appearance, which the node's
                    // copy of the state retains, and its animations) is
                    // asked for next.
                    if i + 2 < n {
                        let ahead = layers[i + 2]
                        if ahead.isDirty || ahead.subtreeDirty {
                            strata_prefetch_lines(ahead.state.appearanceAddress, 1)
                            ahead.animationEntries.withUnsafeBufferPointer { entries in
                                if let first = entries.baseAddress { strata_prefetch_lines(first, 2) }
                            }
                        }
                    }
                    (nodes.baseAddress! + i).initialize(to: layers[i].commitNode())
                    count = i + 1
                }
            }
        }
    }

    /// How many layers ahead `commitSublayers` asks for, and how many of
    /// each layer's lines (those a commit reads, up to the state's end).
    static let prefetchDistance = 4
    static let prefetchLines: Int32 = 5
}
