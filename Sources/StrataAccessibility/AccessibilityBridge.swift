import Foundation
import StrataControls
import StrataGraphics

/// Shows a view tree to the desktop's assistive tools (Orca, and anything
/// that reads AT-SPI2): the tree's views and elements, with the roles,
/// names, values, states, extents and actions of their accessibility
/// properties, served over D-Bus on the accessibility bus, as GTK 4 and Qt
/// serve theirs.
///
/// It speaks AT-SPI2 directly (libdbus), not through ATK and atk-bridge:
/// those would need a GObject mirror of every view and a GLib main loop in
/// every program; here each object path stands for a view or element of
/// the live tree, answered when asked, so nothing is built or kept per
/// frame. A window makes a bridge only when assistive technology is on
/// (`isEnabled(sessionBus:)`: `org.a11y.Status`'s `IsEnabled` or
/// `ScreenReaderEnabled`); without one, accessibility costs nothing.
///
/// The application is `/org/a11y/atspi/accessible/root`, its one child the
/// root view (a frame named by the window's title), each view and element
/// a path of its own. Interfaces: Accessible and Application; Component
/// (extents on the screen or in the window); Action (a button's click, a
/// slider's increment and decrement, custom actions); Value (adjustable
/// views); Text (text fields).
@MainActor
public final class AccessibilityBridge {
    /// The bus name and path prefix AT-SPI2 uses.
    static let prefix = "/org/a11y/atspi/accessible"
    static let rootPath = "/org/a11y/atspi/accessible/root"

    private let connection: DBusConnection
    /// The view tree shown.
    public let rootView: View
    /// The application's name (the window's title).
    public var name: String
    /// Where the root view's top left is on the screen, in pixels, and the
    /// pixels a point: what extents on the screen are measured from.
    public var screenGeometry: @MainActor () -> (origin: Point, scale: Double) = { (Point(x: 0, y: 0), 1) }
    /// The id the registry gave the application.
    private var applicationID = 0
    /// The token of the bridge's listening to `AccessibilityCenter`.
    private var listener = 0
    /// The paths given out: each view's and element's number.
    private var ids: [ObjectIdentifier: Int] = [:]
    /// What each number stands for, held weakly: a view that goes is gone
    /// for assistive tools too.
    private var nodes: [Int: WeakNode] = [:]

    private final class WeakNode {
        weak var view: View?
        weak var element: AccessibilityElement?
        init(_ node: Node) {
            switch node {
            case .view(let v): view = v
            case .element(let e): element = e
            case .application: break
            }
        }
        var node: Node? { view.map { .view($0) } ?? element.map { .element($0) } }
    }
    private var nextID = 1
    /// The view inside the first responder the keys are on (a list's
    /// row), as the last `.focusMoved` said.
    private weak var focusedInside: View?

    /// Whether assistive technology is on: the session bus's
    /// `org.a11y.Status` says `IsEnabled` or `ScreenReaderEnabled`.
    /// `STRATA_ACCESSIBILITY=1` (or `0`) in the environment forces it.
    /// The bus at `sessionBus` (default: `DBUS_SESSION_BUS_ADDRESS`).
    public static func isEnabled(sessionBus: String? = nil) -> Bool {
        if let forced = ProcessInfo.processInfo.environment["STRATA_ACCESSIBILITY"] { return forced == "1" }
        guard let address = sessionBus ?? ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
            let bus = try? DBusConnection(address: address)
        else { return false }
        defer { bus.close() }
        // Not asked unless the bus launcher runs: asking would start it.
        guard
            let has = try? bus.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameHasOwner",
                arguments: [.string("org.a11y.Bus")]), has.values.first as? Bool == true
        else { return false }
        for property in ["IsEnabled", "ScreenReaderEnabled"] {
            if let reply = try? bus.call(
                destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string("org.a11y.Status"), .string(property)]), reply.values.first as? Bool == true
            {
                return true
            }
        }
        return false
    }

    /// Turns assistive technology on (or off) on the session bus at
    /// `sessionBus` (default: `DBUS_SESSION_BUS_ADDRESS`), as a desktop's
    /// settings do when a screen reader is turned on: sets
    /// `org.a11y.Status.IsEnabled`, which starts the accessibility bus.
    /// - Throws: `AccessibilityBusError` when there is no session bus or
    ///   it has no accessibility bus launcher (Debian's at-spi2-core).
    public static func setEnabled(_ enabled: Bool, sessionBus: String? = nil) throws {
        guard let address = sessionBus ?? ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] else {
            throw AccessibilityBusError.noSessionBus
        }
        let bus = try DBusConnection(address: address)
        defer { bus.close() }
        _ = try bus.call(
            destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties", member: "Set",
            arguments: [.string("org.a11y.Status"), .string("IsEnabled"), .variant(signature: "b", .boolean(enabled))], timeout: 20)
    }

    /// Connects to the accessibility bus (its address asked of the session
    /// bus's `org.a11y.Bus`, or `AT_SPI_BUS_ADDRESS`) and embeds the
    /// application in the desktop's tree.
    /// - Throws: `AccessibilityBusError` when a bus cannot be reached or
    ///   the registry does not answer.
    public init(rootView: View, name: String, sessionBus: String? = nil) throws(AccessibilityBusError) {
        self.rootView = rootView
        self.name = name
        let env = ProcessInfo.processInfo.environment
        let address: String
        if let a = env["AT_SPI_BUS_ADDRESS"], !a.isEmpty {
            address = a
        } else {
            guard let session = sessionBus ?? env["DBUS_SESSION_BUS_ADDRESS"] else { throw .noSessionBus }
            let bus = try DBusConnection(address: session)
            defer { bus.close() }
            let reply = try bus.call(destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress")
            guard let a = reply.string(0) else { throw .unexpectedReply(method: "org.a11y.Bus.GetAddress") }
            address = a
        }
        connection = try DBusConnection(address: address)
        connection.serve(pathsUnder: Self.prefix) { [weak self] path, interface, member, arguments in
            self?.handle(path: path, interface: interface, member: member, arguments: arguments)
        }
        listener = AccessibilityCenter.addListener(for: rootView) { [weak self] notification, view in
            self?.post(notification, from: view)
        }
        // The registry answers Embed with the desktop's reference.
        do {
            _ = try connection.call(
                destination: "org.a11y.atspi.Registry", path: Self.rootPath, interface: "org.a11y.atspi.Socket", member: "Embed",
                arguments: [.reference(connection.uniqueName, Self.rootPath)])
        } catch {
            AccessibilityCenter.removeListener(listener)
            connection.close()
            throw error
        }
    }

    /// Leaves the desktop's tree and closes the connection. Closing again
    /// does nothing.
    public func close() {
        guard connection.isOpen else { return }
        AccessibilityCenter.removeListener(listener)
        connection.signal(
            path: Self.rootPath, interface: "org.a11y.atspi.Socket", member: "Unembed", arguments: [.reference(connection.uniqueName, Self.rootPath)])
        connection.close()
    }

    /// Reads and answers what the bus has sent (the main queue does this
    /// by itself; for tests that hold the main actor).
    public func answerPendingCalls() { connection.pump() }

    // MARK: Events

    /// Tells assistive tools that keyboard focus moved from `old` to
    /// `new` (AT-SPI's `object:state-changed:focused`): what a screen
    /// reader follows to say where the user is. A window calls it from its
    /// dispatcher's focus changes.
    public func focusDidMove(from old: View?, to new: View?) {
        // A row focused inside the view taking focus stays focused (the
        // view said so as it took focus); any other is left.
        if let inside = focusedInside, new.map({ !inside.isDescendant(of: $0) }) ?? true {
            focusedInside = nil
            stateChanged(.view(inside), "focused", on: false)
        }
        if let old, old === rootView || old.isDescendant(of: rootView) { stateChanged(.view(old), "focused", on: false) }
        if let new, new === rootView || new.isDescendant(of: rootView) { stateChanged(.view(new), "focused", on: true) }
    }

    /// Tells assistive tools what `notification` says, from `view` (the
    /// root when nil): a spoken announcement, a value that changed, or a
    /// screen or layout that changed.
    public func post(_ notification: AccessibilityNotification, from view: View? = nil) {
        let node: Node = view.map { .view($0) } ?? .view(rootView)
        switch notification {
        case .announcement(let text):
            event(node, "Announcement", "", 1, 0, .variant(signature: "s", .string(text)))
        case .valueChanged:
            if let view, view.accessibilityNumericValue == nil, view.accessibilityTextContent == nil {
                // The value is read as the description (a chart's summary, a
                // streaming graph's latest samples).
                event(node, "PropertyChange", "accessible-description", 0, 0, .variant(signature: "s", .string(description(node))))
            } else {
                event(node, "PropertyChange", "accessible-value", 0, 0, .variant(signature: "s", .string(view?.accessibilityValue ?? "")))
            }
        case .layoutChanged, .screenChanged:
            event(node, "ChildrenChanged", "add", 0, 0, .variant(signature: "(so)", reference(node)))
        case .textInserted(let offset, let text):
            event(node, "TextChanged", "insert", Int32(clamping: offset), Int32(clamping: text.count), .variant(signature: "s", .string(text)))
        case .textRemoved(let offset, let text):
            event(node, "TextChanged", "delete", Int32(clamping: offset), Int32(clamping: text.count), .variant(signature: "s", .string(text)))
        case .caretMoved(let offset):
            event(node, "TextCaretMoved", "", Int32(clamping: offset), 0, .variant(signature: "i", .int32(0)))
        case .textSelectionChanged:
            event(node, "TextSelectionChanged", "", 0, 0, .variant(signature: "i", .int32(0)))
        case .pageScrolled(let status):
            event(node, "Announcement", "", 1, 0, .variant(signature: "s", .string(status)))
        case .focusMoved:
            guard let view, view !== focusedInside else { return }
            if let old = focusedInside { stateChanged(.view(old), "focused", on: false) }
            focusedInside = view
            stateChanged(node, "focused", on: true)
        }
    }

    private func stateChanged(_ node: Node, _ state: String, on: Bool) {
        event(node, "StateChanged", state, on ? 1 : 0, 0, .variant(signature: "i", .int32(0)))
    }

    /// An `org.a11y.atspi.Event.Object` signal from `node`'s path.
    private func event(_ node: Node, _ member: String, _ detail: String, _ one: Int32, _ two: Int32, _ data: DBusValue) {
        connection.signal(
            path: path(of: node), interface: "org.a11y.atspi.Event.Object", member: member,
            arguments: [.string(detail), .int32(one), .int32(two), data, .array(signature: "{sv}", [])])
    }

    // MARK: The tree

    enum Node {
        case application
        case view(View)
        case element(AccessibilityElement)
    }

    private func path(of node: Node) -> String {
        let object: AnyObject
        switch node {
        case .application: return Self.rootPath
        case .view(let v): object = v
        case .element(let e): object = e
        }
        let key = ObjectIdentifier(object)
        if let id = ids[key], let known = nodes[id]?.node, Self.same(known, node) { return "\(Self.prefix)/\(id)" }
        let id = nextID
        nextID += 1
        ids[key] = id
        nodes[id] = WeakNode(node)
        // Now and then, forget the numbers of what is gone.
        if id.isMultiple(of: 1024) {
            for (n, entry) in nodes where entry.node == nil { nodes[n] = nil }
            ids = ids.filter { nodes[$0.value] != nil }
        }
        return "\(Self.prefix)/\(id)"
    }

    private static func same(_ a: Node, _ b: Node) -> Bool {
        switch (a, b) {
        case (.application, .application): true
        case (.view(let x), .view(let y)): x === y
        case (.element(let x), .element(let y)): x === y
        default: false
        }
    }

    private func node(at path: String) -> Node? {
        if path == Self.rootPath { return .application }
        guard path.hasPrefix(Self.prefix + "/"), let id = Int(path.dropFirst(Self.prefix.count + 1)), let node = nodes[id]?.node else {
            return nil
        }
        // A view that left the tree is gone for assistive tools too.
        if case .view(let v) = node, v !== rootView, !v.isDescendant(of: rootView) { return nil }
        return node
    }

    private func reference(_ node: Node) -> DBusValue { .reference(connection.uniqueName, path(of: node)) }

    private func children(_ node: Node) -> [Node] {
        switch node {
        case .application: return [.view(rootView)]
        case .view(let v):
            return v.accessibilityChildren.map {
                switch $0 {
                case .view(let sub): .view(sub)
                case .element(let e): .element(e)
                }
            }
        case .element: return []
        }
    }

    private func parent(_ node: Node) -> Node? {
        switch node {
        case .application: return nil
        case .view(let v): return v === rootView ? .application : v.superview.map { .view($0) } ?? .application
        case .element(let e): return e.container.map { .view($0) } ?? .application
        }
    }

    private func role(_ node: Node) -> AccessibilityRole {
        switch node {
        case .application: .application
        case .view(let v): v === rootView ? .frame : v.accessibilityRole
        case .element(let e): e.resolvedRole
        }
    }

    private func name(_ node: Node) -> String {
        switch node {
        case .application: name
        case .view(let v): v.accessibilityLabel ?? (v === rootView ? name : "")
        case .element(let e): [e.label, e.value].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        }
    }

    private func description(_ node: Node) -> String {
        switch node {
        case .application: ""
        // The value, for views whose value no interface carries (a chart's summary).
        case .view(let v):
            v.accessibilityHint
                ?? (v.accessibilityNumericValue == nil && v.accessibilityTextContent == nil ? v.accessibilityValue : nil) ?? ""
        case .element(let e): e.hint ?? ""
        }
    }

    /// The AT-SPI states: two 32-bit words of bits.
    private func states(_ node: Node) -> [UInt32] {
        var bits: UInt64 = 0
        func set(_ s: AtspiState) { bits |= 1 << UInt64(s.rawValue) }
        switch node {
        case .application:
            break
        case .view(let v):
            let traits = v.accessibilityTraits
            if !traits.contains(.notEnabled) {
                set(.enabled)
                set(.sensitive)
            }
            if !v.isHidden {
                set(.visible)
                if v === rootView || v.superview != nil { set(.showing) }
            }
            if v === rootView { set(.active) }
            if v.canBecomeFocused { set(.focusable) }
            if v.isFirstResponder || v === focusedInside { set(.focused) }
            if traits.contains(.selected) { set(.selected) }
            switch v.accessibilityRole {
            case .entry, .passwordText:
                set(.editable)
                set(.singleLine)
            case .text:
                set(.editable)
                set(.multiLine)
            case .slider:
                set(.horizontal)
            default:
                break
            }
        case .element(let e):
            set(.visible)
            set(.showing)
            if !e.traits.contains(.notEnabled) {
                set(.enabled)
                set(.sensitive)
            }
        }
        return [UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32)]
    }

    /// The actions: name and what it does.
    private func actions(_ node: Node) -> [(name: String, perform: @MainActor () -> Bool)] {
        switch node {
        case .application:
            return []
        case .view(let v):
            var list: [(String, @MainActor () -> Bool)] = []
            switch v.accessibilityRole {
            case .pushButton, .link, .listItem:
                list.append(("click", { v.accessibilityActivate() }))
            case .slider:
                list.append(
                    (
                        "increment",
                        {
                            v.accessibilityIncrement()
                            return true
                        }
                    ))
                list.append(
                    (
                        "decrement",
                        {
                            v.accessibilityDecrement()
                            return true
                        }
                    ))
            default:
                break
            }
            if let scroll = v as? ScrollView, [.scrollPane, .list].contains(v.accessibilityRole) {
                // By page, along the axes the content is longer than the view.
                let size = scroll.contentSize, b = scroll.bounds
                var directions: [(String, AccessibilityScrollDirection)] = []
                if size.height > b.height { directions += [("scroll up", .up), ("scroll down", .down)] }
                if size.width > b.width { directions += [("scroll left", .left), ("scroll right", .right)] }
                for (name, direction) in directions { list.append((name, { scroll.accessibilityScroll(direction) })) }
            }
            for action in v.accessibilityCustomActions { list.append((action.name, { action.perform() })) }
            return list
        case .element(let e):
            guard let activate = e.activate else { return [] }
            return [("click", activate)]
        }
    }

    private func interfaces(_ node: Node) -> [String] {
        var list = ["org.a11y.atspi.Accessible"]
        switch node {
        case .application:
            list.append("org.a11y.atspi.Application")
        case .view(let v):
            list.append("org.a11y.atspi.Component")
            if !actions(node).isEmpty { list.append("org.a11y.atspi.Action") }
            if v.accessibilityNumericValue != nil { list.append("org.a11y.atspi.Value") }
            if v.accessibilityTextContent != nil { list.append("org.a11y.atspi.Text") }
        case .element:
            list.append("org.a11y.atspi.Component")
            if !actions(node).isEmpty { list.append("org.a11y.atspi.Action") }
        }
        return list
    }

    /// The node's frame in the root view's points.
    private func frame(_ node: Node) -> Rect {
        switch node {
        case .application: rootView.accessibilityFrame
        case .view(let v): v.accessibilityFrame
        case .element(let e): e.frameInRoot
        }
    }

    /// The node's extents in pixels: on the screen (`coordinates` 0) or
    /// in the window (1 and 2).
    private func extents(_ node: Node, coordinates: Int) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        let f = frame(node)
        let (origin, scale) = screenGeometry()
        let dx = coordinates == 0 ? origin.x : 0, dy = coordinates == 0 ? origin.y : 0
        let px = Self.pixels
        return (px(f.minX * scale + dx), px(f.minY * scale + dy), px(f.width * scale), px(f.height * scale))
    }

    /// `v` as AT-SPI's 32-bit pixel coordinates: rounded, held to their
    /// range, 0 when it is not a number.
    static func pixels(_ v: Double) -> Int32 {
        v.isFinite ? Int32(max(Double(Int32.min), min(Double(Int32.max), v.rounded()))) : 0
    }

    /// The node's text and caret for the Text interface (empty for nodes without).
    private func text(_ node: Node) -> AccessibilityTextContent {
        guard case .view(let v) = node, let content = v.accessibilityTextContent else { return AccessibilityTextContent(text: "", caret: 0) }
        return content
    }

    // MARK: Answering

    private func handle(path: String, interface: String, member: String, arguments: DBusArguments) -> DBusConnection.Reply? {
        guard let node = node(at: path) else {
            return .error(name: "org.freedesktop.DBus.Error.UnknownObject", text: "\(path) is gone")
        }
        if interface == "org.freedesktop.DBus.Properties" {
            switch member {
            case "Get":
                guard let iface = arguments.string(0), let property = arguments.string(1), let value = self.property(node, iface, property)
                else { return .error(name: "org.freedesktop.DBus.Error.UnknownProperty", text: "no such property") }
                return .values([.variant(signature: value.signature, value.value)])
            case "GetAll":
                guard let iface = arguments.string(0) else { return .values([.array(signature: "{sv}", [])]) }
                let entries = Self.properties[iface, default: []].compactMap { p in
                    self.property(node, iface, p).map { DBusValue.entry(.string(p), .variant(signature: $0.signature, $0.value)) }
                }
                return .values([.array(signature: "{sv}", entries)])
            case "Set":
                if arguments.string(1) == "Id", let id = arguments.int(2) { applicationID = id }
                if arguments.string(1) == "CurrentValue", case .view(let v) = node, let d = arguments.double(2) {
                    v.setAccessibilityNumericValue(d)
                }
                return .values([])
            default:
                return nil
            }
        }
        switch (interface, member) {
        case ("org.a11y.atspi.Accessible", "GetChildAtIndex"):
            let kids = children(node)
            let i = arguments.int(0) ?? -1
            guard kids.indices.contains(i) else { return .values([.reference("", "/org/a11y/atspi/null")]) }
            return .values([reference(kids[i])])
        case ("org.a11y.atspi.Accessible", "GetChildren"):
            return .values([.array(signature: "(so)", children(node).map { reference($0) })])
        case ("org.a11y.atspi.Accessible", "GetIndexInParent"):
            guard let p = parent(node) else { return .values([.int32(-1)]) }
            let me = self.path(of: node)
            return .values([.int32(Int32(children(p).firstIndex { self.path(of: $0) == me } ?? -1))])
        case ("org.a11y.atspi.Accessible", "GetRelationSet"):
            return .values([.array(signature: "(ua(so))", [])])
        case ("org.a11y.atspi.Accessible", "GetRole"):
            return .values([.uint32(UInt32(AtspiRole(role(node)).rawValue))])
        case ("org.a11y.atspi.Accessible", "GetRoleName"), ("org.a11y.atspi.Accessible", "GetLocalizedRoleName"):
            return .values([.string(role(node).rawValue)])
        case ("org.a11y.atspi.Accessible", "GetState"):
            return .values([.array(signature: "u", states(node).map { .uint32($0) })])
        case ("org.a11y.atspi.Accessible", "GetAttributes"):
            var entries: [DBusValue] = [.entry(.string("toolkit"), .string("Strata"))]
            if case .view(let v) = node {
                if let id = v.accessibilityIdentifier { entries.append(.entry(.string("id"), .string(id))) }
                for (key, value) in v.accessibilityAttributes.sorted(by: { $0.key < $1.key }) { entries.append(.entry(.string(key), .string(value))) }
            }
            return .values([.array(signature: "{ss}", entries)])
        case ("org.a11y.atspi.Accessible", "GetApplication"):
            return .values([reference(.application)])
        case ("org.a11y.atspi.Accessible", "GetInterfaces"):
            return .values([.array(signature: "s", interfaces(node).map { .string($0) })])
        case ("org.a11y.atspi.Application", "GetLocale"):
            return .values([.string(Locale.current.identifier)])
        case ("org.a11y.atspi.Component", "GetExtents"):
            let e = extents(node, coordinates: arguments.int(0) ?? 0)
            return .values([.structure([.int32(e.x), .int32(e.y), .int32(e.width), .int32(e.height)])])
        case ("org.a11y.atspi.Component", "GetPosition"):
            let e = extents(node, coordinates: arguments.int(0) ?? 0)
            return .values([.int32(e.x), .int32(e.y)])
        case ("org.a11y.atspi.Component", "GetSize"):
            let e = extents(node, coordinates: 0)
            return .values([.int32(e.width), .int32(e.height)])
        case ("org.a11y.atspi.Component", "Contains"):
            let e = extents(node, coordinates: arguments.int(2) ?? 0)
            let x = Int32(clamping: arguments.int(0) ?? Int.min), y = Int32(clamping: arguments.int(1) ?? Int.min)
            return .values([.boolean(x >= e.x && y >= e.y && x < e.x + e.width && y < e.y + e.height)])
        case ("org.a11y.atspi.Component", "GetLayer"):
            return .values([.uint32(node.isRoot(rootView) ? 7 : 3)])  // window, widget
        case ("org.a11y.atspi.Component", "GetMDIZOrder"):
            return .values([.int32(0)])
        case ("org.a11y.atspi.Component", "GetAlpha"):
            return .values([.double(1)])
        case ("org.a11y.atspi.Component", "GrabFocus"):
            guard case .view(let v) = node else { return .values([.boolean(false)]) }
            return .values([.boolean(v.becomeFirstResponder())])
        case ("org.a11y.atspi.Action", "GetName"), ("org.a11y.atspi.Action", "GetLocalizedName"):
            let list = actions(node), i = arguments.int(0) ?? -1
            return .values([.string(list.indices.contains(i) ? list[i].name : "")])
        case ("org.a11y.atspi.Action", "GetDescription"), ("org.a11y.atspi.Action", "GetKeyBinding"):
            return .values([.string("")])
        case ("org.a11y.atspi.Action", "GetActions"):
            return .values([.array(signature: "(sss)", actions(node).map { .structure([.string($0.name), .string(""), .string("")]) })])
        case ("org.a11y.atspi.Action", "DoAction"):
            let list = actions(node), i = arguments.int(0) ?? -1
            return .values([.boolean(list.indices.contains(i) ? list[i].perform() : false)])
        case ("org.a11y.atspi.Text", "GetText"):
            let characters = Array(text(node).text)
            let start = max(0, min(arguments.int(0) ?? 0, characters.count))
            var end = arguments.int(1) ?? -1
            if end < 0 || end > characters.count { end = characters.count }
            return .values([.string(String(characters[start..<max(start, end)]))])
        case ("org.a11y.atspi.Text", "GetCharacterAtOffset"):
            let characters = Array(text(node).text), i = arguments.int(0) ?? -1
            return .values([.int32(characters.indices.contains(i) ? Int32(characters[i].unicodeScalars.first!.value) : 0)])
        case ("org.a11y.atspi.Text", "GetStringAtOffset"):
            // Granularity: character, word, sentence, line, paragraph.
            let kinds: [AccessibilityTextGranularity] = [.character, .word, .sentence, .line, .paragraph]
            let k = arguments.int(1) ?? 0
            return piece(node, at: arguments.int(0) ?? 0, kinds.indices.contains(k) ? kinds[k] : .character, shift: 0)
        case ("org.a11y.atspi.Text", "GetTextAtOffset"), ("org.a11y.atspi.Text", "GetTextBeforeOffset"),
            ("org.a11y.atspi.Text", "GetTextAfterOffset"):
            // Boundary types: character, word start and end, sentence start and end, line start and end.
            let kinds: [AccessibilityTextGranularity] = [.character, .word, .word, .sentence, .sentence, .line, .line]
            let k = arguments.int(1) ?? 0
            let shift = member == "GetTextBeforeOffset" ? -1 : member == "GetTextAfterOffset" ? 1 : 0
            return piece(node, at: arguments.int(0) ?? 0, kinds.indices.contains(k) ? kinds[k] : .character, shift: shift)
        case ("org.a11y.atspi.Text", "GetNSelections"):
            return .values([.int32(text(node).selection.isEmpty ? 0 : 1)])
        case ("org.a11y.atspi.Text", "GetSelection"):
            let selection = text(node).selection
            guard arguments.int(0) == 0, !selection.isEmpty else { return .values([.int32(0), .int32(0)]) }
            return .values([.int32(Int32(clamping: selection.lowerBound)), .int32(Int32(clamping: selection.upperBound))])
        case ("org.a11y.atspi.Text", "AddSelection"), ("org.a11y.atspi.Text", "SetSelection"):
            // AddSelection(start, end); SetSelection(number, start, end): one selection only.
            let first = member == "AddSelection" ? 0 : 1
            guard case .view(let v) = node, member == "AddSelection" || arguments.int(0) == 0,
                let a = arguments.int(first), let b = arguments.int(first + 1)
            else { return .values([.boolean(false)]) }
            return .values([.boolean(v.setAccessibilityTextSelection(min(a, b)..<max(a, b)))])
        case ("org.a11y.atspi.Text", "RemoveSelection"):
            guard case .view(let v) = node, arguments.int(0) == 0 else { return .values([.boolean(false)]) }
            let caret = text(node).caret
            return .values([.boolean(v.setAccessibilityTextSelection(caret..<caret))])
        case ("org.a11y.atspi.Text", "SetCaretOffset"):
            guard case .view(let v) = node, let i = arguments.int(0) else { return .values([.boolean(false)]) }
            return .values([.boolean(v.setAccessibilityTextSelection(i..<i))])
        default:
            return nil
        }
    }

    /// The piece of `node`'s text of `granularity` at `offset` (`shift`:
    /// the one before or after it instead), as AT-SPI answers: the text,
    /// its start and its end.
    private func piece(_ node: Node, at offset: Int, _ granularity: AccessibilityTextGranularity, shift: Int) -> DBusConnection.Reply {
        let content = text(node)
        let characters = Array(content.text)
        var r = content.range(of: granularity, at: offset)
        if shift < 0 { r = r.lowerBound > 0 ? content.range(of: granularity, at: r.lowerBound - 1) : 0..<0 }
        if shift > 0 { r = r.upperBound < characters.count ? content.range(of: granularity, at: r.upperBound) : characters.count..<characters.count }
        return .values([.string(String(characters[r])), .int32(Int32(clamping: r.lowerBound)), .int32(Int32(clamping: r.upperBound))])
    }

    static let properties: [String: [String]] = [
        "org.a11y.atspi.Accessible": ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId"],
        "org.a11y.atspi.Application": ["ToolkitName", "Version", "AtspiVersion", "Id"],
        "org.a11y.atspi.Action": ["NActions"],
        "org.a11y.atspi.Value": ["MinimumValue", "MaximumValue", "MinimumIncrement", "CurrentValue", "Text"],
        "org.a11y.atspi.Text": ["CharacterCount", "CaretOffset"],
    ]

    private func property(_ node: Node, _ interface: String, _ property: String) -> (signature: String, value: DBusValue)? {
        switch (interface, property) {
        case ("org.a11y.atspi.Accessible", "Name"): return ("s", .string(name(node)))
        case ("org.a11y.atspi.Accessible", "Description"): return ("s", .string(description(node)))
        case ("org.a11y.atspi.Accessible", "Parent"):
            return ("(so)", parent(node).map { reference($0) } ?? .reference("", "/org/a11y/atspi/null"))
        case ("org.a11y.atspi.Accessible", "ChildCount"): return ("i", .int32(Int32(clamping: children(node).count)))
        case ("org.a11y.atspi.Accessible", "Locale"): return ("s", .string(Locale.current.identifier))
        case ("org.a11y.atspi.Accessible", "AccessibleId"):
            guard case .view(let v) = node else { return ("s", .string("")) }
            return ("s", .string(v.accessibilityIdentifier ?? ""))
        case ("org.a11y.atspi.Application", "ToolkitName"): return ("s", .string("Strata"))
        case ("org.a11y.atspi.Application", "Version"): return ("s", .string("1"))
        case ("org.a11y.atspi.Application", "AtspiVersion"): return ("s", .string("2.1"))
        case ("org.a11y.atspi.Application", "Id"): return ("i", .int32(Int32(clamping: applicationID)))
        case ("org.a11y.atspi.Action", "NActions"): return ("i", .int32(Int32(actions(node).count)))
        case ("org.a11y.atspi.Text", "CharacterCount"): return ("i", .int32(Int32(clamping: text(node).text.count)))
        case ("org.a11y.atspi.Text", "CaretOffset"): return ("i", .int32(Int32(clamping: text(node).caret)))
        case ("org.a11y.atspi.Value", _):
            guard case .view(let v) = node, let value = v.accessibilityNumericValue else { return nil }
            switch property {
            case "MinimumValue": return ("d", .double(value.minimum))
            case "MaximumValue": return ("d", .double(value.maximum))
            case "MinimumIncrement": return ("d", .double(value.increment))
            case "CurrentValue": return ("d", .double(value.current))
            case "Text": return ("s", .string(v.accessibilityValue ?? ""))
            default: return nil
            }
        default:
            return nil
        }
    }
}

extension AccessibilityBridge.Node {
    func isRoot(_ root: View) -> Bool {
        if case .view(let v) = self { return v === root }
        return false
    }
}

/// AT-SPI2's role numbers (atspi-constants.h), for the roles Strata uses.
enum AtspiRole: Int {
    case frame = 23
    case image = 27
    case label = 29
    case list = 31
    case listItem = 32
    case panel = 39
    case passwordText = 40
    case pushButton = 43
    case scrollPane = 49
    case slider = 51
    case text = 61
    case application = 75
    case entry = 79
    case chart = 80
    case heading = 83
    case link = 88

    init(_ role: AccessibilityRole) {
        switch role {
        case .panel: self = .panel
        case .application: self = .application
        case .frame: self = .frame
        case .pushButton: self = .pushButton
        case .link: self = .link
        case .label: self = .label
        case .entry: self = .entry
        case .passwordText: self = .passwordText
        case .text: self = .text
        case .slider: self = .slider
        case .scrollPane: self = .scrollPane
        case .list: self = .list
        case .listItem: self = .listItem
        case .image: self = .image
        case .heading: self = .heading
        case .chart: self = .chart
        }
    }
}

/// AT-SPI2's state numbers (bits of `GetState`'s two words).
enum AtspiState: Int {
    case active = 1
    case editable = 7
    case enabled = 8
    case focusable = 11
    case focused = 12
    case horizontal = 14
    case multiLine = 17
    case selected = 23
    case sensitive = 24
    case showing = 25
    case singleLine = 26
    case visible = 30
}
