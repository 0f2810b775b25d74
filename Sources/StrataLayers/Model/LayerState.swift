import StrataGraphics
import StrataText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which corners `cornerRadius` rounds (`CACornerMask`), named for a layer
/// whose y axis points down: min-x/min-y is the top left.
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let minXMinY = CornerMask(rawValue: 1)
    public static let maxXMinY = CornerMask(rawValue: 2)
    public static let minXMaxY = CornerMask(rawValue: 4)
    public static let maxXMaxY = CornerMask(rawValue: 8)
    public static let all: CornerMask = [.minXMinY, .maxXMinY, .minXMaxY, .maxXMaxY]
}

/// How contents are placed in the bounds (`CALayerContentsGravity`).
public enum ContentsGravity: Hashable, Sendable, CaseIterable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    /// Stretched to fill the bounds (the default).
    case resize
    /// Scaled to fit inside the bounds, keeping its aspect ratio.
    case resizeAspect
    /// Scaled to fill the bounds, keeping its aspect ratio (and cropped).
    case resizeAspectFill
}

/// The values of a layer that change less often than its geometry, kept
/// behind one shared reference (see `LayerState`).
struct Appearance: Sendable {
    var sublayerTransform: Transform3D = Transform3D.identity
    var allowsGroupOpacity: Bool = true
    var isDoubleSided: Bool = true
    var backgroundColor: Color? = nil
    var cornerRadius: Double = 0.0
    var maskedCorners: CornerMask = CornerMask.all
    var borderWidth: Double = 0.0
    var borderColor: Color = Color.black
    var masksToBounds: Bool = false
    var shadowColor: Color = Color.black
    var shadowOpacity: Double = 0.0
    var shadowOffset: Size = Size(width: 0, height: -3)
    var shadowRadius: Double = 3.0
    var shadowPath: Path? = nil
    var contents: Image? = nil
    var contentsRect: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsGravity: ContentsGravity = ContentsGravity.resize
    var contentsScale: Double = 1.0
    /// What a special layer adds (see `SpecialLayerState`); nil for a plain
    /// layer. Boxed once more, so that a plain layer's nil is one pointer:
    /// the compositor asks every layer for it in every frame, and copying an
    /// optional existential costs calls through its value witnesses.
    var special: Boxed<any SpecialLayerState>? = nil
}

/// A layer's transform when it is not the identity (immutable; a change
/// makes a new one).
final class TransformBox: Sendable {
    let value: Transform3D
    init(_ value: Transform3D) { self.value = value }
}

/// The appearance of one or more states. Written only through
/// `LayerState.appearance`'s modify accessor, which copies it first unless
/// this state holds the only reference.
final class AppearanceBox: @unchecked Sendable {
    // Safe to share between threads: a box is mutated only while
    // `isKnownUniquelyReferenced` says one state owns it, so no other state,
    // render node or thread can be reading it; a shared box is never written.
    var value: Appearance
    init(_ value: Appearance) { self.value = value }
    /// The default appearance, shared by new states; never written, since
    /// this reference keeps it from ever being uniquely held.
    static let shared = AppearanceBox(Appearance())
}

/// Everything a layer shows, as one value: the model layer holds one, the
/// render tree copies it, and animations write presentation values into copies.
///
/// The geometry (what moves and fades most) is stored inline; everything else
/// sits behind one copy-on-write reference, so a state is 232 bytes.
/// A commit copies each changed layer's state into a render node and an
/// animation frame copies each animated layer's, so the size is what those
/// cost: a 1.2 KB state made committing 10,000 moved layers several times
/// slower, most of it in memory traffic.
public struct LayerState: Sendable {
    // Geometry.
    public var bounds = Rect.zero
    public var position = Point.zero
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    public var anchorPointZ = 0.0
    public var zPosition = 0.0
    /// The transform, out of line: nil for the identity, which most layers
    /// have, so that a state (copied into every render node) is 128 bytes
    /// smaller.
    private var transformBox: TransformBox?
    public var transform: Transform3D {
        get { transformBox?.value ?? .identity }
        set { transformBox = newValue == .identity ? nil : TransformBox(newValue) }
    }
    public var opacity = 1.0
    public var isHidden = false
    /// The rest.
    private var box = AppearanceBox.shared

    /// Where the appearance is, for asking the processor for it ahead of
    /// a read (`Layer.commitSublayers`); not to be read through.
    var appearanceAddress: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque()) }

    /// Whether `other` draws the same as this, wherever the two are placed:
    /// everything but the position, anchor point and transform is equal. The
    /// appearance is compared by reference, so this is only exact against a
    /// state that still holds its reference (a committed render node's):
    /// writing to a shared appearance copies it first.
    func looksTheSame(as other: LayerState) -> Bool {
        box === other.box && bounds == other.bounds && opacity == other.opacity && isHidden == other.isHidden
            && zPosition == other.zPosition
    }

    /// The values behind the copy-on-write reference (everything but the
    /// geometry); writing one copies them first if they are shared.
    var appearance: Appearance {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = AppearanceBox(box.value) }
            yield &box.value
        }
    }

    public var sublayerTransform: Transform3D {
        get { box.value.sublayerTransform }
        set { appearance.sublayerTransform = newValue }
    }
    public var allowsGroupOpacity: Bool {
        get { box.value.allowsGroupOpacity }
        set { appearance.allowsGroupOpacity = newValue }
    }
    public var isDoubleSided: Bool {
        get { box.value.isDoubleSided }
        set { appearance.isDoubleSided = newValue }
    }
    public var backgroundColor: Color? {
        get { box.value.backgroundColor }
        set { appearance.backgroundColor = newValue }
    }
    public var cornerRadius: Double {
        get { box.value.cornerRadius }
        set { appearance.cornerRadius = newValue }
    }
    public var maskedCorners: CornerMask {
        get { box.value.maskedCorners }
        set { appearance.maskedCorners = newValue }
    }
    public var borderWidth: Double {
        get { box.value.borderWidth }
        set { appearance.borderWidth = newValue }
    }
    public var borderColor: Color {
        get { box.value.borderColor }
        set { appearance.borderColor = newValue }
    }
    public var masksToBounds: Bool {
        get { box.value.masksToBounds }
        set { appearance.masksToBounds = newValue }
    }
    public var shadowColor: Color {
        get { box.value.shadowColor }
        set { appearance.shadowColor = newValue }
    }
    public var shadowOpacity: Double {
        get { box.value.shadowOpacity }
        set { appearance.shadowOpacity = newValue }
    }
    public var shadowOffset: Size {
        get { box.value.shadowOffset }
        set { appearance.shadowOffset = newValue }
    }
    public var shadowRadius: Double {
        get { box.value.shadowRadius }
        set { appearance.shadowRadius = newValue }
    }
    public var shadowPath: Path? {
        get { box.value.shadowPath }
        set { appearance.shadowPath = newValue }
    }
    public var contents: Image? {
        get { box.value.contents }
        set { appearance.contents = newValue }
    }
    public var contentsRect: Rect {
        get { box.value.contentsRect }
        set { appearance.contentsRect = newValue }
    }
    public var contentsCenter: Rect {
        get { box.value.contentsCenter }
        set { appearance.contentsCenter = newValue }
    }
    public var contentsGravity: ContentsGravity {
        get { box.value.contentsGravity }
        set { appearance.contentsGravity = newValue }
    }
    public var contentsScale: Double {
        get { box.value.contentsScale }
        set { appearance.contentsScale = newValue }
    }
    /// What a special layer adds (`ShapeLayer`'s path and colours, …); nil
    /// for a plain layer. Each kind has a typed accessor next to its layer
    /// (`shape`, `gradient`, `text`, `tiled`, `emitter`, `replicator`).
    var special: (any SpecialLayerState)? {
        get { box.value.special?.value }
        set { appearance.special = newValue.map(Boxed.init) }
    }
    /// `special` in its box, for the compositor: a plain layer's nil costs a
    /// pointer test, and a special layer's state is used in place, not copied.
    var specialBox: Boxed<any SpecialLayerState>? { box.value.special }

    public init() {}

    /// The layer's frame in its superlayer (for an affine transform: the
    /// bounding box of the transformed bounds).
    public var frame: Rect {
        let t = localToParent(sublayerTransformOfParent: .identity)
        let mapped = bounds.corners.compactMap { t.project($0) }
        guard mapped.count == 4 else { return .null }
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Where the anchor point is, in the layer's own (bounds) coordinates.
    var anchorInBounds: Point {
        Point(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// The map from this layer's coordinates to its superlayer's: move the
    /// anchor to the origin, apply `transform`, move to `position` and
    /// `zPosition`, then the superlayer's sublayer transform (about its anchor).
    func localToParent(sublayerTransformOfParent parent: Transform3D) -> Transform3D {
        let a = anchorInBounds
        return Transform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: position.x, y: position.y, z: zPosition))
            .concatenating(parent)
    }

    /// The sublayer transform as it applies to sublayers' positions: about the
    /// anchor point, in bounds coordinates.
    var sublayerTransformAboutAnchor: Transform3D {
        guard !sublayerTransform.isIdentity else { return .identity }
        let a = anchorInBounds
        return Transform3D(translationX: -a.x, y: -a.y).concatenating(sublayerTransform)
            .concatenating(Transform3D(translationX: a.x, y: a.y))
    }

    /// The rounded shape of the bounds: `cornerRadius` on `maskedCorners`,
    /// limited to half the shorter side.
    var roundedBoundsPath: Path {
        LayerState.roundedPath(bounds, radius: cornerRadius, corners: maskedCorners)
    }

    /// `rect` with `corners` rounded by `radius`, limited to half the shorter side.
    static func roundedPath(_ rect: Rect, radius: Double, corners: CornerMask) -> Path {
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        guard r > 0, !corners.isEmpty else { return Path(rect: rect) }
        return Path(roundedRect: rect, radii: corners, radius: r)
    }
}

/// An immutable value behind a reference; writing a new value makes a new box,
/// so boxes are shared freely between states and threads.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension Path {
    /// A rectangle with circular corners of radius `radius` at the corners in `corners`.
    init(roundedRect rect: Rect, radii corners: CornerMask, radius r: Double) {
        self.init()
        if corners == .all {
            addRoundedRect(in: rect, cornerWidth: r, cornerHeight: r)
            return
        }
        // Clockwise from the top left (y down), with a quarter circle of cubic
        // Béziers (κ = 0.5523) where a corner is rounded.
        let k = 0.5522847498 * r
        let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
        let tl = corners.contains(.minXMinY), tr = corners.contains(.maxXMinY)
        let br = corners.contains(.maxXMaxY), bl = corners.contains(.minXMaxY)
        move(to: Point(x: tl ? x0 + r : x0, y: y0))
        addLine(to: Point(x: tr ? x1 - r : x1, y: y0))
        if tr { addCurve(to: Point(x: x1, y: y0 + r), control1: Point(x: x1 - r + k, y: y0), control2: Point(x: x1, y: y0 + r - k)) }
        addLine(to: Point(x: x1, y: br ? y1 - r : y1))
        if br { addCurve(to: Point(x: x1 - r, y: y1), control1: Point(x: x1, y: y1 - r + k), control2: Point(x: x1 - r + k, y: y1)) }
        addLine(to: Point(x: bl ? x0 + r : x0, y: y1))
        if bl { addCurve(to: Point(x: x0, y: y1 - r), control1: Point(x: x0 + r - k, y: y1), control2: Point(x: x0, y: y1 - r + k)) }
        addLine(to: Point(x: x0, y: tl ? y0 + r : y0))
        if tl { addCurve(to: Point(x: x0 + r, y: y0), control1: Point(x: x0, y: y0 + r - k), control2: Point(x: x0 + r - k, y: y0)) }
        closeSubpath()
    }
}

// MARK: Key paths

extension LayerState {
    /// The value at a Core Animation key path ("position", "bounds.size.width",
    /// "transform.rotation.z", "strokeEnd", …), or nil for a key this layer
    /// does not have.
    public func value(forKeyPath key: String) -> (any AnimatableValue)? {
        LayerState.accessors[key]?.get(self)
    }

    /// Sets the value at a key path. A key that is not an animatable property
    /// of this layer, or a value of another type than the property's, leaves
    /// the state as it was and returns false (and stops a debug build at an
    /// assertion: see `KeyPathDiagnostics`).
    @discardableResult
    public mutating func setValue(_ value: any AnimatableValue, forKeyPath key: String) -> Bool {
        if let problem = KeyPathDiagnostics.problem(value, forKeyPath: key, in: self) {
            KeyPathDiagnostics.report("setValue(_:forKeyPath:): \(problem); nothing was set")
            return false
        }
        LayerState.accessors[key]?.set(&self, value)
        return true
    }

    /// `setValue` without the checks, for animations, whose values were
    /// checked when they were added.
    mutating func setAnimatedValue(_ value: any AnimatableValue, forKeyPath key: String) {
        LayerState.accessors[key]?.set(&self, value)
    }

    /// Whether `key` names an animatable property.
    public static func isAnimatable(_ key: String) -> Bool { accessors[key] != nil }

    /// How to read and write one key path. A class, so that an animation
    /// holding one copies a single reference.
    final class Accessor: Sendable {
        let get: @Sendable (LayerState) -> (any AnimatableValue)?
        let set: @Sendable (inout LayerState, any AnimatableValue) -> Void

        init(
            get: @escaping @Sendable (LayerState) -> (any AnimatableValue)?,
            set: @escaping @Sendable (inout LayerState, any AnimatableValue) -> Void
        ) {
            self.get = get
            self.set = set
        }
    }

    /// A property read and written by two closures: direct field accesses,
    /// several times faster than applying a key path.
    static func field<V: AnimatableValue>(
        _ get: @escaping @Sendable (LayerState) -> V,
        _ set: @escaping @Sendable (inout LayerState, V) -> Void
    ) -> Accessor {
        Accessor(get: { get($0) }, set: { s, v in if let v = v as? V { set(&s, v) } })
    }

    /// Whether animating key path `a` can change the value at `b`: the same
    /// key, or one inside the other ("position" and "position.x").
    static func keysOverlap(_ a: String, _ b: String) -> Bool {
        var i = a.utf8.makeIterator(), j = b.utf8.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return true
            case (nil, let c?), (let c?, nil): return c == UInt8(ascii: ".")
            case let (x?, y?): if x != y { return false }
            }
        }
    }

    static func optional<V: AnimatableValue>(_ kp: WritableKeyPath<LayerState, V?> & Sendable) -> Accessor {
        Accessor(get: { $0[keyPath: kp] }, set: { s, v in if let v = v as? V { s[keyPath: kp] = v } })
    }

    /// A colour that may be nil, animating from and to clear.
    static func optionalColor(_ kp: WritableKeyPath<LayerState, Color?> & Sendable) -> Accessor {
        Accessor(get: { $0[keyPath: kp] ?? .clear }, set: { s, v in if let v = v as? Color { s[keyPath: kp] = v } })
    }

    /// A property of a special layer's state (`part`: its typed accessor, as
    /// `\.shape`), when the layer is of that kind; for the kinds'
    /// `animatableKeyPaths`.
    static func specialProperty<S, V: AnimatableValue>(
        _ part: WritableKeyPath<LayerState, S?> & Sendable,
        _ kp: WritableKeyPath<S, V> & Sendable
    ) -> Accessor {
        Accessor(
            get: { $0[keyPath: part]?[keyPath: kp] },
            set: { s, v in if let v = v as? V, s[keyPath: part] != nil { s[keyPath: part]![keyPath: kp] = v } })
    }

    static func transformParts(_ kp: WritableKeyPath<LayerState, Transform3D> & Sendable) -> [String: Accessor] {
        func part(
            _ get: @escaping @Sendable (Transform3D) -> Double,
            _ set: @escaping @Sendable (Transform3D, Double) -> Transform3D
        ) -> Accessor {
            Accessor(get: { get($0[keyPath: kp]) }, set: { s, v in if let v = v as? Double { s[keyPath: kp] = set(s[keyPath: kp], v) } })
        }
        let zAngle: @Sendable (Transform3D) -> Double = { atan2($0.m12, $0.m11) }
        let scaleX: @Sendable (Transform3D) -> Double = { ($0.m11 * $0.m11 + $0.m12 * $0.m12 + $0.m13 * $0.m13).squareRoot() }
        let scaleY: @Sendable (Transform3D) -> Double = { ($0.m21 * $0.m21 + $0.m22 * $0.m22 + $0.m23 * $0.m23).squareRoot() }
        let scaleZ: @Sendable (Transform3D) -> Double = { ($0.m31 * $0.m31 + $0.m32 * $0.m32 + $0.m33 * $0.m33).squareRoot() }
        // A part is changed by applying the difference before the rest of the
        // transform: exact for the usual cases (an animation of one part on a
        // transform that is otherwise a translation and a uniform scale).
        let rotZ = part(zAngle) { t, v in t.rotated(by: v - zAngle(t), x: 0, y: 0, z: 1) }
        let rotX = part({ _ in 0 }, { t, v in t.rotated(by: v, x: 1, y: 0, z: 0) })
        let rotY = part({ _ in 0 }, { t, v in t.rotated(by: v, x: 0, y: 1, z: 0) })
        @Sendable func rescale(_ t: Transform3D, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
            let (sx, sy, sz) = (scaleX(t), scaleY(t), scaleZ(t))
            return t.scaledBy(x: sx != 0 ? x / sx : x, y: sy != 0 ? y / sy : y, z: sz != 0 ? z / sz : z)
        }
        let name = kp == \LayerState.transform ? "transform" : "sublayerTransform"
        return [
            "\(name).rotation": rotZ, "\(name).rotation.z": rotZ, "\(name).rotation.x": rotX, "\(name).rotation.y": rotY,
            "\(name).scale": part(scaleX) { t, v in rescale(t, v, v, v) },
            "\(name).scale.x": part(scaleX) { t, v in rescale(t, v, scaleY(t), scaleZ(t)) },
            "\(name).scale.y": part(scaleY) { t, v in rescale(t, scaleX(t), v, scaleZ(t)) },
            "\(name).scale.z": part(scaleZ) { t, v in rescale(t, scaleX(t), scaleY(t), v) },
            "\(name).translation.x": part(
                { $0.m41 },
                { t, v in
                    var t = t; t.m41 = v; return t
                }),
            "\(name).translation.y": part(
                { $0.m42 },
                { t, v in
                    var t = t; t.m42 = v; return t
                }),
            "\(name).translation.z": part(
                { $0.m43 },
                { t, v in
                    var t = t; t.m43 = v; return t
                }),
            "\(name).translation": Accessor(
                get: { Size(width: $0[keyPath: kp].m41, height: $0[keyPath: kp].m42) },
                set: { s, v in
                    if let v = v as? Size { s[keyPath: kp].m41 = v.width; s[keyPath: kp].m42 = v.height }
                }),
        ]
    }

    static let accessors: [String: Accessor] = {
        var a: [String: Accessor] = [
            "bounds": field({ $0.bounds }, { $0.bounds = $1 }),
            "bounds.origin": field({ $0.bounds.origin }, { $0.bounds.origin = $1 }),
            "bounds.size": field({ $0.bounds.size }, { $0.bounds.size = $1 }),
            "bounds.origin.x": field({ $0.bounds.origin.x }, { $0.bounds.origin.x = $1 }),
            "bounds.origin.y": field({ $0.bounds.origin.y }, { $0.bounds.origin.y = $1 }),
            "bounds.size.width": field({ $0.bounds.size.width }, { $0.bounds.size.width = $1 }),
            "bounds.size.height": field({ $0.bounds.size.height }, { $0.bounds.size.height = $1 }),
            "position": field({ $0.position }, { $0.position = $1 }),
            "position.x": field({ $0.position.x }, { $0.position.x = $1 }),
            "position.y": field({ $0.position.y }, { $0.position.y = $1 }),
            "anchorPoint": field({ $0.anchorPoint }, { $0.anchorPoint = $1 }),
            "anchorPointZ": field({ $0.anchorPointZ }, { $0.anchorPointZ = $1 }),
            "zPosition": field({ $0.zPosition }, { $0.zPosition = $1 }),
            "transform": field({ $0.transform }, { $0.transform = $1 }),
            "sublayerTransform": field({ $0.sublayerTransform }, { $0.sublayerTransform = $1 }),
            "opacity": field({ $0.opacity }, { $0.opacity = $1 }),
            "backgroundColor": optionalColor(\.backgroundColor),
            "cornerRadius": field({ $0.cornerRadius }, { $0.cornerRadius = $1 }),
            "borderWidth": field({ $0.borderWidth }, { $0.borderWidth = $1 }),
            "borderColor": field({ $0.borderColor }, { $0.borderColor = $1 }),
            "shadowColor": field({ $0.shadowColor }, { $0.shadowColor = $1 }),
            "shadowOpacity": field({ $0.shadowOpacity }, { $0.shadowOpacity = $1 }),
            "shadowOffset": field({ $0.shadowOffset }, { $0.shadowOffset = $1 }),
            "shadowRadius": field({ $0.shadowRadius }, { $0.shadowRadius = $1 }),
            "shadowPath": optional(\.shadowPath),
            "contentsRect": field({ $0.contentsRect }, { $0.contentsRect = $1 }),
            "contentsCenter": field({ $0.contentsCenter }, { $0.contentsCenter = $1 }),
        ]
        for kind in specialKinds { a.merge(kind.animatableKeyPaths) { $1 } }
        a.merge(transformParts(\.transform)) { $1 }
        a.merge(transformParts(\.sublayerTransform)) { $1 }
        return a
    }()
}
