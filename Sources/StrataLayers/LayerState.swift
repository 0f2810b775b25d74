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

/// Everything a layer shows, as one value: the model layer holds one, the
/// render tree copies it, and animations write presentation values into copies.
public struct LayerState: Sendable {
    // Geometry.
    public var bounds = Rect.zero
    public var position = Point.zero
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    public var anchorPointZ = 0.0
    public var zPosition = 0.0
    public var transform = Transform3D.identity
    public var sublayerTransform = Transform3D.identity
    // Appearance.
    public var isHidden = false
    public var opacity = 1.0
    public var allowsGroupOpacity = true
    public var isDoubleSided = true
    public var backgroundColor: Color? = nil
    public var cornerRadius = 0.0
    public var maskedCorners = CornerMask.all
    public var borderWidth = 0.0
    public var borderColor = Color.black
    public var masksToBounds = false
    public var shadowColor = Color.black
    public var shadowOpacity = 0.0
    public var shadowOffset = Size(width: 0, height: -3)
    public var shadowRadius = 3.0
    public var shadowPath: Path? = nil
    // Contents.
    public var contents: Image? = nil
    public var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    public var contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1)
    public var contentsGravity = ContentsGravity.resize
    public var contentsScale = 1.0
    // What special layers draw.
    var shape: ShapeState? = nil
    var gradient: GradientState? = nil
    var text: TextState? = nil
    var replicator: ReplicatorState? = nil

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
        let r = max(0, min(cornerRadius, min(bounds.width, bounds.height) / 2))
        guard r > 0, !maskedCorners.isEmpty else { return Path(rect: bounds) }
        return Path(roundedRect: bounds, radii: maskedCorners, radius: r)
    }
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

    /// Sets the value at a key path; values of the wrong type are ignored.
    public mutating func setValue(_ value: any AnimatableValue, forKeyPath key: String) {
        LayerState.accessors[key]?.set(&self, value)
    }

    /// Whether `key` names an animatable property.
    public static func isAnimatable(_ key: String) -> Bool { accessors[key] != nil }

    struct Accessor: Sendable {
        let get: @Sendable (LayerState) -> (any AnimatableValue)?
        let set: @Sendable (inout LayerState, any AnimatableValue) -> Void
    }

    static func plain<V: AnimatableValue>(_ kp: WritableKeyPath<LayerState, V> & Sendable) -> Accessor {
        Accessor(get: { $0[keyPath: kp] }, set: { s, v in if let v = v as? V { s[keyPath: kp] = v } })
    }

    static func optional<V: AnimatableValue>(_ kp: WritableKeyPath<LayerState, V?> & Sendable) -> Accessor {
        Accessor(get: { $0[keyPath: kp] }, set: { s, v in if let v = v as? V { s[keyPath: kp] = v } })
    }

    /// A colour that may be nil, animating from and to clear.
    static func optionalColor(_ kp: WritableKeyPath<LayerState, Color?> & Sendable) -> Accessor {
        Accessor(get: { $0[keyPath: kp] ?? .clear }, set: { s, v in if let v = v as? Color { s[keyPath: kp] = v } })
    }

    /// A key path into a special layer's state, when the layer has it.
    static func special<S, V: AnimatableValue>(_ part: WritableKeyPath<LayerState, S?> & Sendable,
                                               _ kp: WritableKeyPath<S, V> & Sendable) -> Accessor {
        Accessor(get: { $0[keyPath: part]?[keyPath: kp] },
                 set: { s, v in if let v = v as? V, s[keyPath: part] != nil { s[keyPath: part]![keyPath: kp] = v } })
    }

    static func transformParts(_ kp: WritableKeyPath<LayerState, Transform3D> & Sendable) -> [String: Accessor] {
        func part(_ get: @escaping @Sendable (Transform3D) -> Double,
                  _ set: @escaping @Sendable (Transform3D, Double) -> Transform3D) -> Accessor {
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
        let rotX = part({ _ in 0 }) { t, v in t.rotated(by: v, x: 1, y: 0, z: 0) }
        let rotY = part({ _ in 0 }) { t, v in t.rotated(by: v, x: 0, y: 1, z: 0) }
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
            "\(name).translation.x": part({ $0.m41 }) { t, v in var t = t; t.m41 = v; return t },
            "\(name).translation.y": part({ $0.m42 }) { t, v in var t = t; t.m42 = v; return t },
            "\(name).translation.z": part({ $0.m43 }) { t, v in var t = t; t.m43 = v; return t },
            "\(name).translation": Accessor(get: { Size(width: $0[keyPath: kp].m41, height: $0[keyPath: kp].m42) },
                                            set: { s, v in
                                                if let v = v as? Size { s[keyPath: kp].m41 = v.width; s[keyPath: kp].m42 = v.height }
                                            }),
        ]
    }

    static let accessors: [String: Accessor] = {
        var a: [String: Accessor] = [
            "bounds": plain(\.bounds), "bounds.origin": plain(\.bounds.origin), "bounds.size": plain(\.bounds.size),
            "bounds.origin.x": plain(\.bounds.origin.x), "bounds.origin.y": plain(\.bounds.origin.y),
            "bounds.size.width": plain(\.bounds.size.width), "bounds.size.height": plain(\.bounds.size.height),
            "position": plain(\.position), "position.x": plain(\.position.x), "position.y": plain(\.position.y),
            "anchorPoint": plain(\.anchorPoint), "anchorPointZ": plain(\.anchorPointZ), "zPosition": plain(\.zPosition),
            "transform": plain(\.transform), "sublayerTransform": plain(\.sublayerTransform),
            "opacity": plain(\.opacity), "backgroundColor": optionalColor(\.backgroundColor),
            "cornerRadius": plain(\.cornerRadius), "borderWidth": plain(\.borderWidth), "borderColor": plain(\.borderColor),
            "shadowColor": plain(\.shadowColor), "shadowOpacity": plain(\.shadowOpacity), "shadowOffset": plain(\.shadowOffset),
            "shadowRadius": plain(\.shadowRadius), "shadowPath": optional(\.shadowPath),
            "contentsRect": plain(\.contentsRect), "contentsCenter": plain(\.contentsCenter),
            // Shape layers.
            "path": special(\.shape, \.path), "fillColor": special(\.shape, \.fillColorValue),
            "strokeColor": special(\.shape, \.strokeColorValue), "lineWidth": special(\.shape, \.lineWidth),
            "miterLimit": special(\.shape, \.miterLimit), "lineDashPhase": special(\.shape, \.lineDashPhase),
            "lineDashPattern": special(\.shape, \.lineDashPattern),
            "strokeStart": special(\.shape, \.strokeStart), "strokeEnd": special(\.shape, \.strokeEnd),
            // Gradient layers.
            "colors": special(\.gradient, \.colors), "locations": special(\.gradient, \.locationsValue),
            "startPoint": special(\.gradient, \.startPoint), "endPoint": special(\.gradient, \.endPoint),
            // Text layers.
            "foregroundColor": special(\.text, \.foregroundColor), "fontSize": special(\.text, \.fontSize),
            // Replicator layers.
            "instanceTransform": special(\.replicator, \.instanceTransform),
            "instanceColor": special(\.replicator, \.instanceColor), "instanceDelay": special(\.replicator, \.instanceDelay),
            "instanceRedOffset": special(\.replicator, \.instanceRedOffset),
            "instanceGreenOffset": special(\.replicator, \.instanceGreenOffset),
            "instanceBlueOffset": special(\.replicator, \.instanceBlueOffset),
            "instanceAlphaOffset": special(\.replicator, \.instanceAlphaOffset),
        ]
        a.merge(transformParts(\.transform)) { $1 }
        a.merge(transformParts(\.sublayerTransform)) { $1 }
        return a
    }()
}
