import Dispatch
import StrataGraphics
import StrataLayers
import StrataText

/// What a text field tells its delegate, and asks it (`UITextFieldDelegate`).
/// Every method has a default: allow, do nothing.
@MainActor
public protocol TextFieldDelegate: AnyObject {
    /// Whether the characters of `range` (character offsets in the text)
    /// may become `replacement`: typing, deleting, cutting, pasting, an
    /// input method's commit. Not asked for the input method's pre-edit.
    func textField(_ field: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString: String) -> Bool
    /// The text changed.
    func textFieldDidChange(_ field: TextField)
    /// The selection (or caret) moved.
    func textFieldDidChangeSelection(_ field: TextField)
    /// Return was pressed; true when the delegate handled it.
    func textFieldShouldReturn(_ field: TextField) -> Bool
    /// The field took keyboard focus.
    func textFieldDidBeginEditing(_ field: TextField)
    /// The field lost keyboard focus.
    func textFieldDidEndEditing(_ field: TextField)
}

extension TextFieldDelegate {
    public func textField(_ field: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString: String) -> Bool { true }
    public func textFieldDidChange(_ field: TextField) {}
    public func textFieldDidChangeSelection(_ field: TextField) {}
    public func textFieldShouldReturn(_ field: TextField) -> Bool { false }
    public func textFieldDidBeginEditing(_ field: TextField) {}
    public func textFieldDidEndEditing(_ field: TextField) {}
}

/// A line of editable text (`UITextField`): a caret that blinks, a
/// selection made with the pointer or the keys, undo, the clipboard, a
/// placeholder, secure entry, and an input method's composition shown
/// underlined at the caret.
///
/// Keys, as GTK's and the Mac's text fields take them: arrows move by
/// character, with Control or Option by word, Home, End, Up and Down to
/// the ends; Shift extends the selection; Backspace and Delete remove the
/// selection or a character (a word with Control or Option); Control (or
/// Command) with A, C, X, V, Z selects all, copies, cuts, pastes and
/// undoes, with Shift-Z or Y redoes. Return asks the delegate
/// (`textFieldShouldReturn`); Tab moves focus. A click places the caret,
/// a double click selects a word, a triple click everything, a drag or
/// a shift-click extends. Text pasted with line breaks has them as spaces.
///
/// The text model is StrataText's `EditableText`; `editableText` exposes
/// it for an input method or an assistive tool.
open class TextField: View, TextInputClient {
    public weak var delegate: (any TextFieldDelegate)?

    /// The text, its selection, marked text and undo.
    public private(set) var editableText = EditableText()

    /// The text. Setting it puts the caret at its end and clears undo.
    public var text: String {
        get { editableText.string }
        set {
            editableText = EditableText(Self.oneLine(newValue))
            contentDidChange()
        }
    }

    /// The selection, in characters (empty: the caret).
    public var selectedRange: Range<Int> {
        get { editableText.selectedRange }
        set {
            editableText.selectedRange = newValue
            selectionDidChange()
        }
    }

    /// Shown in grey while the text is empty.
    public var placeholder: String? {
        didSet { contentDidChange() }
    }

    /// Whether the text is shown as bullets (a password), and kept off the
    /// clipboard.
    public var isSecureTextEntry = false {
        didSet { contentDidChange() }
    }

    /// The text's size in points. Default 15; a size that is not a
    /// positive number is 15, one above `Font.sizeRange` its largest.
    public var fontSize = 15.0 {
        didSet {
            fontSize = Self.heldFontSize(fontSize)
            contentDidChange()
        }
    }

    /// `size` as the controls' font sizes take it: 15 when it is not a
    /// positive number, else within `Font.sizeRange`.
    static func heldFontSize(_ size: Double) -> Double {
        size > 0 && size.isFinite ? min(max(size, Font.sizeRange.lowerBound), Font.sizeRange.upperBound) : 15
    }

    public var textColor = Color(white: 0.1) {
        didSet { contentDidChange() }
    }

    /// The caret's, the selection's and the focused border's colour.
    public var tintColor = Color(red: 0.10, green: 0.45, blue: 0.95) {
        didSet { contentDidChange() }
    }

    /// Room between the border and the text, left and right.
    public static let padding = 8.0

    private let content = Layer()
    private let selectionLayer = ShapeLayer()
    private let textLayer = TextLayer()
    private let caret = Layer()
    /// How far the text is scrolled left, to keep the caret in view.
    public private(set) var scrollOffset = 0.0

    public init(frame: Rect = Rect(x: 0, y: 0, width: 0, height: 0), text: String = "") {
        super.init(frame: frame)
        editableText = EditableText(Self.oneLine(text))
        layer.backgroundColor = .white
        layer.cornerRadius = 6
        layer.borderWidth = 1
        content.masksToBounds = true
        content.anchorPoint = .zero
        for l in [selectionLayer, textLayer, caret] as [Layer] { l.anchorPoint = .zero }
        selectionLayer.strokeColor = nil
        content.addSublayer(selectionLayer)
        content.addSublayer(textLayer)
        content.addSublayer(caret)
        layer.addSublayer(content)
        contentDidChange()
    }

    // MARK: Appearance

    /// The font the text and the placeholder are drawn in.
    private var font: Font { Font(family: "sans-serif", size: fontSize) }

    /// `s` as the field shows it: itself, or bullets for secure entry (what
    /// assistive tools are told too).
    private func shown(_ s: String) -> String { isSecureTextEntry ? String(repeating: "•", count: s.count) : s }

    /// The text as drawn: bullets for secure entry, the marked text
    /// underlined, or the placeholder.
    private var displayText: AttributedText {
        let plain = TextAttributes(font: font, foregroundColor: textColor)
        let string = shown(editableText.string)
        guard !string.isEmpty else { return AttributedText() }
        guard let marked = editableText.markedRange, !isSecureTextEntry else { return AttributedText(string, attributes: plain) }
        var underlined = plain
        underlined.underline = TextDecoration(.single)
        var text = AttributedText()
        let characters = Array(string)
        text.append(String(characters[..<marked.lowerBound]), attributes: plain)
        text.append(String(characters[marked]), attributes: underlined)
        text.append(String(characters[marked.upperBound...]), attributes: plain)
        return text
    }

    /// The laid-out text, as the text layer draws it (one line, from the
    /// shared cache); for an empty field, a space's (for the caret's height).
    public var textLayout: TextLayout { layout(of: displayText) }

    private func layout(of text: AttributedText) -> TextLayout {
        let shown = text.count > 0 ? text : AttributedText(" ", attributes: TextAttributes(font: font))
        return LayoutCache.shared.layout(shown, width: .infinity, style: ParagraphStyle())
    }

    /// The caret's rectangle in the field's coordinates (its height the
    /// line's), where an input method's candidate window goes: kept as
    /// the field was last laid out, which every change of text, caret,
    /// font or size does.
    public private(set) var caretRect = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The caret's x in the laid-out text (0 in an empty field).
    private func caretX(in layout: TextLayout) -> Double {
        editableText.count == 0 ? 0 : layout.caretRect(forCharacterAt: editableText.caret).minX
    }

    /// The text's top left in the field's coordinates.
    private func textOrigin(_ layout: TextLayout) -> Point {
        let height = layout.size.height
        return Point(x: Self.padding - scrollOffset, y: ((bounds.height - height) / 2).rounded())
    }

    open override func sizeDidChange() { contentDidChange() }

    /// Lays out the layers for the text, selection and caret.
    private func contentDidChange() {
        let text = displayText
        let layout = layout(of: text)
        let width = max(0, bounds.width - 2 * Self.padding)
        // Keep the caret in view.
        let caretX = caretX(in: layout)
        if caretX - scrollOffset > width { scrollOffset = caretX - width }
        if caretX < scrollOffset { scrollOffset = caretX }
        scrollOffset = max(0, min(scrollOffset, max(0, layout.size.width - width)))
        let origin = textOrigin(layout)
        let line = layout.caretRect(forCharacterAt: editableText.count == 0 ? 0 : editableText.caret)
        caretRect = Rect(x: origin.x + caretX - 1, y: origin.y + line.minY, width: 2, height: line.height)
        withoutActions {
            layer.borderColor = isFirstResponder ? tintColor : Color(white: 0.75)
            content.frame = Rect(x: 0, y: 0, width: bounds.width, height: bounds.height)
            textLayer.frame = Rect(
                x: origin.x, y: origin.y, width: max(layout.size.width + 4, text.count > 0 ? 1 : bounds.width), height: layout.size.height + 2)
            if text.count > 0 {
                textLayer.attributedString = text
            } else if let placeholder, !placeholder.isEmpty {
                textLayer.attributedString = AttributedText(placeholder, attributes: TextAttributes(font: font, foregroundColor: Color(white: 0.6)))
            } else {
                textLayer.attributedString = nil
            }
            // The selection, highlighted while focused.
            let selection = editableText.selectedRange
            var path = Path()
            if !selection.isEmpty, isFirstResponder {
                for r in layout.rects(forCharacters: selection) { path.addRect(r.offsetBy(dx: origin.x, dy: origin.y)) }
            }
            selectionLayer.frame = content.bounds
            selectionLayer.path = path
            selectionLayer.fillColor = Color(red: tintColor.red, green: tintColor.green, blue: tintColor.blue, alpha: 0.25)
            caret.backgroundColor = tintColor
            caret.frame = caretRect
        }
        updateCaretVisibility()
    }

    /// Shows the caret while focused with nothing selected, in the shown
    /// half of its blink.
    private func updateCaretVisibility() {
        let hidden = !isFirstResponder || !editableText.selectedRange.isEmpty || !caretShown
        if caret.isHidden != hidden { withoutActions { caret.isHidden = hidden } }
    }

    // MARK: Blinking

    /// Whether the blinking caret is in its shown half.
    private var caretShown = true
    /// Bumped to stop the blink timer's older ticks.
    private var blinkGeneration = 0
    /// When the caret last moved (blinking stops 10 s after, caret shown).
    private var lastActivity = 0.0

    /// The caret shows whenever it moves, then blinks every half second.
    private func restartBlink() {
        blinkGeneration += 1
        caretShown = true
        lastActivity = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        scheduleBlink(blinkGeneration)
    }

    private func scheduleBlink(_ generation: Int) {
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.blinkGeneration == generation, self.isFirstResponder else { return }
                let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
                self.caretShown = now - self.lastActivity > 10 ? true : !self.caretShown
                self.updateCaretVisibility()
                if now - self.lastActivity <= 10 { self.scheduleBlink(generation) }
            }
        }
    }

    // MARK: Accessibility

    open override var isAccessibilityElement: Bool {
        get { accessibility.isElement ?? true }
        set { accessibility.isElement = newValue }
    }

    /// The placeholder, unless set.
    open override var accessibilityLabel: String? {
        get { accessibility.label ?? placeholder }
        set { accessibility.label = newValue }
    }

    /// The text (none for secure entry), unless set.
    open override var accessibilityValue: String? {
        get { accessibility.value ?? (isSecureTextEntry ? nil : text) }
        set { accessibility.value = newValue }
    }

    /// The text (as bullets for secure entry) and the caret.
    open override var accessibilityTextContent: AccessibilityTextContent? {
        AccessibilityTextContent(text: shown(text), caret: editableText.caret)
    }

    /// An entry, or password text for secure entry, unless set.
    open override var accessibilityRole: AccessibilityRole {
        get { accessibility.role ?? (isSecureTextEntry ? .passwordText : .entry) }
        set { accessibility.role = newValue }
    }

    // MARK: Focus

    open override var canBecomeFirstResponder: Bool { isUserInteractionEnabled }

    open override func didBecomeFirstResponder() {
        restartBlink()
        contentDidChange()
        delegate?.textFieldDidBeginEditing(self)
    }

    open override func didResignFirstResponder() {
        editableText.unmarkText()
        blinkGeneration += 1
        contentDidChange()
        delegate?.textFieldDidEndEditing(self)
    }

    open override func cursor(at point: Point) -> Cursor? { .iBeam }

    // MARK: Editing

    /// Makes an edit on a copy of the text, asks the delegate about what
    /// it changes, and keeps it if allowed (`asking` false: an input
    /// method's pre-edit, kept without asking). Returns whether it was kept.
    @discardableResult
    public func edit(asking: Bool = true, _ change: (inout EditableText) -> Void) -> Bool {
        var edited = editableText
        change(&edited)
        let textChanged = edited.string != editableText.string
        let asks = textChanged && asking && delegate != nil && edited.markedRange == nil
        // What changed, worked out once for the delegate and assistive tools.
        let change = asks || (textChanged && AccessibilityCenter.hasListeners) ? Self.difference(editableText, edited) : nil
        if asks, let delegate, let (range, replacement) = change {
            guard delegate.textField(self, shouldChangeCharactersIn: range, replacementString: replacement) else { return false }
        }
        let selectionChanged = edited.selectedRange != editableText.selectedRange
        let before = editableText
        editableText = edited
        restartBlink()
        contentDidChange()
        if AccessibilityCenter.hasListeners { postTextChanges(from: before, change: change) }
        if textChanged { delegate?.textFieldDidChange(self) }
        if selectionChanged || textChanged { delegate?.textFieldDidChangeSelection(self) }
        return true
    }

    /// Tells assistive tools what an edit changed (`change`: the range of
    /// `before` replaced and what replaced it; not the text of secure
    /// entry: its bullets only) and where the caret went.
    private func postTextChanges(from before: EditableText, change: (Range<Int>, String)? = nil) {
        if let (range, replacement) = change {
            if !range.isEmpty { AccessibilityCenter.post(.textRemoved(offset: range.lowerBound, text: shown(before.text(in: range))), from: self) }
            if !replacement.isEmpty { AccessibilityCenter.post(.textInserted(offset: range.lowerBound, text: shown(replacement)), from: self) }
        }
        if before.caret != editableText.caret || before.string != editableText.string {
            AccessibilityCenter.post(.caretMoved(offset: editableText.caret), from: self)
        }
    }

    /// Moves the caret or selection, telling the delegate.
    private func move(_ change: (inout EditableText) -> Void) {
        var edited = editableText
        change(&edited)
        restartBlink()
        guard edited != editableText || edited.caret != editableText.caret else { return contentDidChange() }
        let before = editableText
        editableText = edited
        if AccessibilityCenter.hasListeners { postTextChanges(from: before) }
        contentDidChange()
        delegate?.textFieldDidChangeSelection(self)
    }

    private func selectionDidChange() {
        contentDidChange()
        delegate?.textFieldDidChangeSelection(self)
    }

    /// The characters that differ between `a` and `b`'s texts (a's range)
    /// and what b has there.
    static func difference(_ a: EditableText, _ b: EditableText) -> (Range<Int>, String) {
        let x = Array(a.string), y = Array(b.string)
        var prefix = 0
        while prefix < x.count, prefix < y.count, x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < x.count - prefix, suffix < y.count - prefix, x[x.count - 1 - suffix] == y[y.count - 1 - suffix] { suffix += 1 }
        return (prefix..<(x.count - suffix), String(y[prefix..<(y.count - suffix)]))
    }

    /// Line breaks as spaces: a field is one line.
    static func oneLine(_ s: String) -> String {
        guard s.contains(where: \.isNewline) else { return s }
        return String(s.map { $0.isNewline ? " " : $0 })
    }

    /// Types `text` as keys do (`UIKeyInput.insertText`), or commits an
    /// input method's text.
    public func insertText(_ text: String) {
        edit { $0.insertText(Self.oneLine(text)) }
    }

    /// Shows an input method's composition (its pre-edit) at the caret,
    /// underlined; `selectedRange` is its caret within `text`.
    public func setMarkedText(_ text: String, selectedRange: Range<Int>) {
        edit(asking: false) { $0.setMarkedText(Self.oneLine(text), selectedRange: selectedRange) }
    }

    /// Commits the composition as it is.
    public func unmarkText() {
        edit { $0.unmarkText() }
    }

    /// Copies the selection to the clipboard (not for secure entry).
    public func copy() {
        guard !isSecureTextEntry, !editableText.selectedRange.isEmpty, let d = dispatcher else { return }
        d.clipboard.writeString(editableText.selectedText, primary: false)
    }

    /// Copies the selection and deletes it.
    public func cut() {
        guard !isSecureTextEntry, !editableText.selectedRange.isEmpty else { return }
        copy()
        edit { $0.deleteBackward() }
    }

    /// Puts the clipboard's text in place of the selection.
    public func paste(primary: Bool = false) {
        dispatcher?.clipboard.readString(primary: primary) { [weak self] text in
            guard let self, let text, !text.isEmpty else { return }
            self.edit { $0.replace($0.selectedRange, with: Self.oneLine(text)) }
        }
    }

    /// Puts the selection on the primary selection, as selecting does on X11.
    private func offerPrimary() {
        guard !isSecureTextEntry, !editableText.selectedRange.isEmpty, let d = dispatcher else { return }
        d.clipboard.writeString(editableText.selectedText, primary: true)
    }

    // MARK: Keys

    open override func keyEvent(_ event: KeyEvent) -> Bool {
        guard event.phase == .down else { return false }
        let m = event.modifiers
        let shortcut = m.contains(.control) || m.contains(.command)
        let byWord = m.contains(.control) || m.contains(.option)
        let shift = m.contains(.shift)
        let unit: TextEditingUnit = byWord ? .word : .character
        switch event.key {
        case .left, .right:
            move({ $0.moveSelection(backward: event.key == .left, by: unit, extending: shift) })
        case .home, .up:
            move({ $0.moveSelection(backward: true, by: .document, extending: shift) })
        case .end, .down:
            move({ $0.moveSelection(backward: false, by: .document, extending: shift) })
        case .backspace:
            edit { $0.deleteBackward(by: unit) }
        case .delete:
            if shift && !byWord { cut() } else { edit { $0.deleteForward(by: unit) } }
        case .enter:
            unmarkText()
            return delegate?.textFieldShouldReturn(self) ?? false
        case .tab, .escape, .pageUp, .pageDown, .function, .other:
            return false
        case .space where !shortcut:
            insertText(" ")
        case .character(let c) where shortcut:
            switch (c.lowercased(), shift) {
            case ("a", _): move({ $0.selectAll() })
            case ("c", _): copy()
            case ("x", _): cut()
            case ("v", _): paste()
            case ("z", false): edit { $0.undo() }
            case ("z", true), ("y", _): edit { $0.redo() }
            default: return false
            }
        default:
            // A key that types: its characters, unless they are control characters.
            let typed = event.characters.filter { !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) }
            guard !shortcut, !typed.isEmpty else { return false }
            insertText(typed)
        }
        offerPrimary()
        return true
    }

    // MARK: Pointer

    private var lastClick: (time: Double, location: Point, count: Int)?

    open override func pointerEvent(_ event: PointerEvent) -> Bool {
        guard isUserInteractionEnabled else { return false }
        let local = convert(event.location, from: nil)
        let layout = textLayout
        let origin = textOrigin(layout)
        let index = editableText.count == 0 ? 0 : layout.characterIndex(at: Point(x: local.x - origin.x, y: layout.size.height / 2))
        switch (event.phase, event.button) {
        case (.down, .middle):
            // X11's middle click pastes the primary selection where it lands.
            _ = becomeFirstResponder()
            move({ $0.select(to: index, extending: false) })
            paste(primary: true)
            return true
        case (.down, .primary):
            if !isFirstResponder { _ = becomeFirstResponder() }
            var count = 1
            if let last = lastClick, event.timestamp - last.time < 0.5,
                abs(last.location.x - event.location.x) < 4, abs(last.location.y - event.location.y) < 4
            {
                count = last.count % 3 + 1
            }
            lastClick = (event.timestamp, event.location, count)
            switch count {
            case 2: move({ $0.selectWord(at: min(index, max(0, $0.count - 1))) })
            case 3: move({ $0.selectAll() })
            default:
                let extend = event.modifiers.contains(.shift)
                move({ $0.select(to: index, extending: extend) })
            }
            return true
        case (.moved, _):
            guard let last = lastClick, last.count < 3 else { return true }
            move({ $0.select(to: index, extending: true) })
            return true
        case (.up, .primary):
            offerPrimary()
            return true
        default:
            return event.phase != .down
        }
    }
}
