import Dispatch
import StrataGraphics
import StrataLayers
import StrataText

/// What an editing view tells its delegate, routed by `TextField` and
/// `TextView` to their own delegate protocols.
enum EditingNotice {
    case shouldChange(Range<Int>, String)
    case didChange, didChangeSelection, didBegin, didEnd, shouldReturn
}

/// The editing machinery `TextField` and `TextView` share: the text model,
/// its caret that blinks and selection, keys, pointer, clipboard, undo, an
/// input method's composition shown underlined at the caret, and what
/// assistive tools are told. Use one of the two; this class is not made
/// on its own.
///
/// Keys, as GTK's and the Mac's text views take them: Left and Right move
/// by character on screen (so through right-to-left text as it is drawn),
/// with Control or Option by word; Home and End go to the line's ends (a
/// field's ends), with Control to the text's; Up and Down move a line
/// (in a field, to the ends), Page Up and Page Down a screenful; Shift
/// extends the selection; Backspace and Delete remove the selection or a
/// character (a word with Control or Option); Control (or Command) with
/// A, C, X, V, Z selects all, copies, cuts, pastes and undoes, with
/// Shift-Z or Y redoes. A click places the caret, a double click selects
/// a word, a triple click a paragraph, a drag or a shift-click extends,
/// a middle click pastes X11's primary selection.
open class TextInputView: View, TextInputClient {
    /// Whether line breaks are kept (a text view) or become spaces (a field).
    let isMultiline: Bool

    /// The text, its selection, marked text and undo.
    public internal(set) var editableText = EditableText()

    /// The text. Setting it puts the caret at its end and clears undo.
    public var text: String {
        get { editableText.string }
        set {
            editableText = EditableText(accepted(newValue))
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

    /// Room between the border and the text.
    public static let padding = 8.0

    private let content = Layer()
    private let selectionLayer = ShapeLayer()
    private let textLayer = TextLayer()
    private let caret = Layer()

    /// How far the text is scrolled (x in a field, y in a text view) to
    /// keep the caret in view.
    public internal(set) var contentOffset = Point(x: 0, y: 0)

    init(frame: Rect, text: String, multiline: Bool, layer: Layer = Layer()) {
        isMultiline = multiline
        super.init(frame: frame, layer: layer)
        editableText = EditableText(accepted(text))
        layer.backgroundColor = .white
        layer.cornerRadius = 6
        layer.borderWidth = 1
        content.masksToBounds = true
        content.anchorPoint = .zero
        for l in [selectionLayer, textLayer, caret] as [Layer] { l.anchorPoint = .zero }
        selectionLayer.strokeColor = nil
        textLayer.isWrapped = multiline
        content.addSublayer(selectionLayer)
        content.addSublayer(textLayer)
        content.addSublayer(caret)
        layer.addSublayer(content)
        contentDidChange()
    }

    /// `s` as this view keeps it: a field's line breaks become spaces.
    func accepted(_ s: String) -> String { isMultiline ? s : Self.oneLine(s) }

    /// Line breaks as spaces: a field is one line.
    static func oneLine(_ s: String) -> String {
        guard s.contains(where: \.isNewline) else { return s }
        return String(s.map { $0.isNewline ? " " : $0 })
    }

    // MARK: Delegates

    /// Tells the subclass's delegate; the answer of `shouldChange` and
    /// `shouldReturn` (true when there is no delegate for the first, false
    /// for the second).
    @discardableResult
    func notify(_ notice: EditingNotice) -> Bool {
        if case .shouldChange = notice { return true }
        return false
    }

    /// Whether a delegate would be asked about changes.
    var asksDelegate: Bool { false }

    // MARK: Appearance

    /// The font the text and the placeholder are drawn in.
    private var font: Font { Font(family: "sans-serif", size: fontSize) }

    /// `s` as the view shows it: itself, or bullets for secure entry (what
    /// assistive tools are told too).
    func shown(_ s: String) -> String { isSecureTextEntry ? String(repeating: "•", count: s.count) : s }

    /// The text as drawn: bullets for secure entry, the marked text
    /// underlined, or nothing (for the placeholder).
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

    /// The width the text wraps at: the inside of the view in a text view,
    /// none in a field.
    private var wrapWidth: Double { isMultiline ? max(1, bounds.width - 2 * Self.padding) : .infinity }

    /// The laid-out text, as the text layer draws it (from the shared
    /// cache). A space stands after an empty text or a final line break,
    /// so the caret there has a line, at the right height.
    public var textLayout: TextLayout { layout(of: displayText) }

    private func layout(of text: AttributedText) -> TextLayout {
        var shown = text
        if text.count == 0 || (isMultiline && text.string.last?.isNewline == true) {
            shown.append(" ", attributes: TextAttributes(font: font))
        }
        return LayoutCache.shared.layout(shown, width: wrapWidth, style: ParagraphStyle())
    }

    /// The caret's rectangle in the view's coordinates (its height the
    /// line's), where an input method's candidate window goes: kept as
    /// the view was last laid out, which every change of text, caret,
    /// font or size does.
    public private(set) var caretRect = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The text's top left in the view's coordinates: scrolled, and in a
    /// field centred vertically.
    private func textOrigin(_ layout: TextLayout) -> Point {
        if isMultiline { return Point(x: Self.padding, y: Self.padding - contentOffset.y) }
        return Point(x: Self.padding - contentOffset.x, y: ((bounds.height - layout.size.height) / 2).rounded())
    }

    open override func sizeDidChange() { contentDidChange() }

    /// Keeps `caret` (layout coordinates) in view by scrolling, and the
    /// scroll within the text.
    private func scrollToShow(_ caret: Rect, in layout: TextLayout) {
        if isMultiline {
            let height = max(0, bounds.height - 2 * Self.padding)
            var y = contentOffset.y
            if caret.maxY - y > height { y = caret.maxY - height }
            if caret.minY < y { y = caret.minY }
            contentOffset.y = max(0, min(y, max(0, layout.size.height - height)))
        } else {
            let width = max(0, bounds.width - 2 * Self.padding)
            var x = contentOffset.x
            if caret.minX - x > width { x = caret.minX - width }
            if caret.minX < x { x = caret.minX }
            contentOffset.x = max(0, min(x, max(0, layout.size.width - width)))
        }
    }

    /// Whether the next layout scrolls the caret into view (not after the
    /// wheel scrolled).
    private var followsCaret = true

    /// Lays out the layers for the text, selection and caret.
    func contentDidChange() {
        let text = displayText
        let layout = layout(of: text)
        let line = layout.caretRect(forCharacterAt: editableText.caret)
        if followsCaret { scrollToShow(line, in: layout) }
        let origin = textOrigin(layout)
        caretRect = Rect(x: origin.x + line.minX - 1, y: origin.y + line.minY, width: 2, height: line.height)
        withoutActions {
            layer.borderColor = isFirstResponder ? tintColor : Color(white: 0.75)
            content.frame = Rect(x: 0, y: 0, width: bounds.width, height: bounds.height)
            let width = isMultiline ? wrapWidth : max(layout.size.width + 4, text.count > 0 ? 1 : bounds.width)
            textLayer.frame = Rect(x: origin.x, y: origin.y, width: width, height: layout.size.height + 2)
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
        followsCaret = true
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

    /// The text (as bullets for secure entry), the caret, the selection
    /// and the lines as laid out.
    open override var accessibilityTextContent: AccessibilityTextContent? {
        let count = editableText.count
        let lines = isMultiline ? textLayout.lines.map { $0.characters.clamped(to: 0..<count) }.filter { !$0.isEmpty } : [0..<count]
        return AccessibilityTextContent(
            text: shown(text), caret: editableText.caret, selection: editableText.selectedRange, lines: lines.isEmpty ? nil : lines)
    }

    /// Selects `range` (held to the text), or puts the caret at an empty
    /// range's place.
    open override func setAccessibilityTextSelection(_ range: Range<Int>) -> Bool {
        let count = editableText.count
        let r = min(max(range.lowerBound, 0), count)..<min(max(range.upperBound, 0), count)
        move { $0.selectedRange = r }
        return true
    }

    // MARK: Focus

    open override var canBecomeFirstResponder: Bool { isUserInteractionEnabled }

    open override func didBecomeFirstResponder() {
        restartBlink()
        contentDidChange()
        notify(.didBegin)
    }

    open override func didResignFirstResponder() {
        editableText.unmarkText()
        blinkGeneration += 1
        contentDidChange()
        notify(.didEnd)
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
        let asks = textChanged && asking && asksDelegate && edited.markedRange == nil
        // What changed, worked out once for the delegate and assistive tools.
        let change = asks || (textChanged && AccessibilityCenter.hasListeners) ? Self.difference(editableText, edited) : nil
        if asks, let (range, replacement) = change {
            guard notify(.shouldChange(range, replacement)) else { return false }
        }
        let selectionChanged = edited.selectedRange != editableText.selectedRange
        let before = editableText
        editableText = edited
        goalX = nil
        restartBlink()
        contentDidChange()
        if AccessibilityCenter.hasListeners { postTextChanges(from: before, change: change) }
        if textChanged { notify(.didChange) }
        if selectionChanged || textChanged { notify(.didChangeSelection) }
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
        if before.selectedRange != editableText.selectedRange, !(before.selectedRange.isEmpty && editableText.selectedRange.isEmpty) {
            AccessibilityCenter.post(.textSelectionChanged, from: self)
        }
    }

    /// Moves the caret or selection, telling the delegate; `keepsGoal`
    /// keeps the column of moves up and down.
    private func move(keepsGoal: Bool = false, _ change: (inout EditableText) -> Void) {
        var edited = editableText
        change(&edited)
        if !keepsGoal { goalX = nil }
        restartBlink()
        guard edited != editableText || edited.caret != editableText.caret else { return contentDidChange() }
        let before = editableText
        editableText = edited
        if AccessibilityCenter.hasListeners { postTextChanges(from: before) }
        contentDidChange()
        notify(.didChangeSelection)
    }

    private func selectionDidChange() {
        contentDidChange()
        notify(.didChangeSelection)
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

    /// Types `text` as keys do (`UIKeyInput.insertText`), or commits an
    /// input method's text.
    public func insertText(_ text: String) {
        edit { $0.insertText(accepted(text)) }
    }

    /// Shows an input method's composition (its pre-edit) at the caret,
    /// underlined; `selectedRange` is its caret within `text`.
    public func setMarkedText(_ text: String, selectedRange: Range<Int>) {
        edit(asking: false) { $0.setMarkedText(accepted(text), selectedRange: selectedRange) }
    }

    /// Commits the composition as it is.
    public func unmarkText() {
        edit { $0.unmarkText() }
    }

    /// Whether the text takes line breaks (a text view's does).
    public var acceptsLineBreaks: Bool { isMultiline }

    /// Up to 1,000 characters each side of the selection, with the caret
    /// and the anchor in them; nil for secure entry.
    public var surroundingText: TextInputSurrounding? {
        guard !isSecureTextEntry else { return nil }
        let selection = editableText.selectedRange, caret = editableText.caret
        let start = max(0, selection.lowerBound - 1000), end = min(editableText.count, selection.upperBound + 1000)
        let anchor = caret == selection.lowerBound ? selection.upperBound : selection.lowerBound
        return TextInputSurrounding(text: editableText.text(in: start..<end), caret: caret - start, anchor: anchor - start)
    }

    /// Deletes `before` characters before the selection and `after`
    /// characters after it (held to the text), keeping the selection.
    public func deleteSurroundingText(before: Int, after: Int) {
        let selection = editableText.selectedRange
        let head = max(0, selection.lowerBound - max(0, before))..<selection.lowerBound
        let tail = selection.upperBound..<min(editableText.count, selection.upperBound + max(0, after))
        guard !head.isEmpty || !tail.isEmpty else { return }
        edit { text in
            if !tail.isEmpty { text.replace(tail, with: "") }
            if !head.isEmpty { text.replace(head, with: "") }
            text.selectedRange = head.lowerBound..<(head.lowerBound + selection.count)
        }
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

    /// Puts the clipboard's text in place of the selection (a field's line
    /// breaks as spaces).
    public func paste(primary: Bool = false) {
        dispatcher?.clipboard.readString(primary: primary) { [weak self] text in
            guard let self, let text, !text.isEmpty else { return }
            self.edit { $0.replace($0.selectedRange, with: self.accepted(text)) }
        }
    }

    /// Puts the selection on the primary selection, as selecting does on X11.
    private func offerPrimary() {
        guard !isSecureTextEntry, !editableText.selectedRange.isEmpty, let d = dispatcher else { return }
        d.clipboard.writeString(editableText.selectedText, primary: true)
    }

    // MARK: Moving on screen

    /// The column moves up and down keep (layout x), while they repeat.
    private var goalX: Double?

    /// Moves the caret one step left or right on screen (by word: a word
    /// back or forward in the line's reading direction), collapsing a
    /// selection to its left or right end.
    private func moveHorizontally(right: Bool, byWord: Bool, extending: Bool) {
        let layout = textLayout
        let line = layout.lines.isEmpty ? nil : layout.lines[layout.lineIndex(forCharacterAt: editableText.caret)]
        let rightToLeft = line?.baseDirection == .rightToLeft
        if byWord {
            let backward = right == rightToLeft
            return move { $0.moveSelection(backward: backward, by: .word, extending: extending) }
        }
        let selection = editableText.selectedRange
        if !extending, !selection.isEmpty {
            // To the selection's end that is on that side on screen.
            let a = layout.caretRect(forCharacterAt: selection.lowerBound).minX
            let b = layout.caretRect(forCharacterAt: selection.upperBound).minX
            let to = (a < b) == right ? selection.upperBound : selection.lowerBound
            return move { $0.select(to: to, extending: false) }
        }
        guard editableText.count > 0, let to = layout.caretIndex(visuallyFrom: editableText.caret, movingRight: right) else {
            return move { _ in }
        }
        move { $0.select(to: min(to, $0.count), extending: extending) }
    }

    /// Moves the caret `lines` lines down (up when negative), keeping its
    /// column; past the first or last line, to the text's start or end.
    private func moveVertically(lines: Int, extending: Bool) {
        let layout = textLayout
        let x = goalX ?? layout.caretRect(forCharacterAt: editableText.caret).minX
        var index = editableText.caret
        for _ in 0..<abs(lines) {
            guard let next = layout.caretIndex(verticallyFrom: index, down: lines > 0, x: x) else {
                index = lines > 0 ? editableText.count : 0
                break
            }
            index = next
        }
        goalX = x
        move(keepsGoal: true) { $0.select(to: min(index, $0.count), extending: extending) }
    }

    /// How many lines a page key moves: the view's height in lines.
    private var linesPerPage: Int {
        let layout = textLayout
        let lineHeight = layout.lines.first.map { $0.ascent + $0.descent } ?? fontSize
        return max(1, Int((bounds.height - 2 * Self.padding) / max(1, lineHeight)) - 1)
    }

    /// Home or End: the line's start or end, or the text's with `document`.
    private func moveToLineEdge(end: Bool, document: Bool, extending: Bool) {
        guard !document, isMultiline else {
            return move { $0.moveSelection(backward: !end, by: .document, extending: extending) }
        }
        let layout = textLayout
        let range = layout.caretRange(ofLine: layout.lineIndex(forCharacterAt: editableText.caret))
        move { $0.select(to: min(end ? range.upperBound : range.lowerBound, $0.count), extending: extending) }
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
            moveHorizontally(right: event.key == .right, byWord: byWord, extending: shift)
        case .up, .down:
            if isMultiline {
                moveVertically(lines: event.key == .down ? 1 : -1, extending: shift)
            } else {
                move { $0.moveSelection(backward: event.key == .up, by: .document, extending: shift) }
            }
        case .home, .end:
            moveToLineEdge(end: event.key == .end, document: shortcut, extending: shift)
        case .pageUp, .pageDown:
            guard isMultiline else { return false }
            moveVertically(lines: (event.key == .pageDown ? 1 : -1) * linesPerPage, extending: shift)
        case .backspace:
            edit { $0.deleteBackward(by: unit) }
        case .delete:
            if shift && !byWord { cut() } else { edit { $0.deleteForward(by: unit) } }
        case .enter:
            unmarkText()
            if notify(.shouldReturn) { return true }
            guard isMultiline else { return false }
            insertText("\n")
        case .tab, .escape, .function, .other:
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

    // MARK: Pointer and wheel

    private var lastClick: (time: Double, location: Point, count: Int)?

    /// The caret position nearest to `point` (root coordinates).
    private func characterIndex(atRoot point: Point) -> Int {
        let local = convert(point, from: nil)
        let layout = textLayout
        let origin = textOrigin(layout)
        guard editableText.count > 0 else { return 0 }
        let y = isMultiline ? local.y - origin.y : layout.size.height / 2
        let index = layout.characterIndex(at: Point(x: local.x - origin.x, y: y))
        let range = layout.caretRange(ofLine: layout.lineIndex(atY: y) ?? 0)
        return min(max(index, range.lowerBound), range.upperBound, editableText.count)
    }

    open override func pointerEvent(_ event: PointerEvent) -> Bool {
        guard isUserInteractionEnabled else { return false }
        let index = characterIndex(atRoot: event.location)
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
            case 3: move({ isMultiline ? $0.selectParagraph(at: min(index, max(0, $0.count - 1))) : $0.selectAll() })
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

    /// A text view scrolls its text with the wheel (the caret stays where
    /// it is, and may leave the view until it next moves).
    open override func scrollEvent(_ event: ScrollEvent) -> Bool {
        guard isMultiline, event.delta.height.isFinite else { return false }
        let layout = textLayout
        let limit = max(0, layout.size.height - (bounds.height - 2 * Self.padding))
        let y = max(0, min(contentOffset.y + event.delta.height, limit))
        guard y != contentOffset.y else { return false }
        contentOffset.y = y
        followsCaret = false
        contentDidChange()
        return true
    }
}
