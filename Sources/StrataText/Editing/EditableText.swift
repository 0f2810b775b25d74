/// Text being edited: its characters, the selection, the text an input
/// method is composing (marked text), and the edits that can be undone.
///
/// It is what a text field keeps, apart from drawing it: `TextField` and
/// `TextView` hold one, and their keys, pointer and input method act on it
/// through the operations here, which are `UIKeyInput`'s and
/// `UITextInput`'s (`insertText`, `deleteBackward`, `setMarkedText`,
/// `unmarkText`, the selected and marked ranges) with the movements and
/// deletions by unit that a text view's keys make.
///
/// Indices count characters, Swift's `Character`s (extended grapheme
/// clusters) as `AttributedText` and `TextLayout` count them, so a caret
/// never lands inside an emoji sequence or a letter with its marks; `utf16Range(_:)` and
/// `characterRange(utf16:)` convert to and from the UTF-16 offsets of
/// `NSRange` and the platforms' input protocols.
public struct EditableText: Sendable, Hashable {
    /// The text's UTF-16 code units.
    private var units: [UInt16]
    /// The UTF-16 offset where each character starts, then the end.
    private var starts: [Int]

    /// The text.
    public var string: String { String(decoding: units, as: UTF16.self) }

    /// How many characters the text has.
    public var count: Int { starts.count - 1 }

    /// The selection, in characters; empty for a caret. Setting it keeps
    /// it inside the text (an out-of-range end is clamped).
    public var selectedRange: Range<Int> {
        get { selection }
        set {
            let r = clamp(newValue)
            selection = r
            anchor = r.lowerBound
            breakTyping()
        }
    }
    private var selection: Range<Int>
    /// The end of the selection that stays put when it is extended (the
    /// other end, `selection`'s opposite, moves).
    private var anchor: Int

    /// Where the caret stands: the selection's end away from its anchor
    /// (the end Shift-arrows move), or, in a composition, the input
    /// method's caret.
    public var caret: Int { selection.lowerBound == anchor ? selection.upperBound : selection.lowerBound }

    /// The characters an input method is composing (its pre-edit), shown
    /// underlined and replaced by the next marked or committed text; nil
    /// when none is.
    public private(set) var markedRange: Range<Int>?

    /// An edit, for undo: at UTF-16 offset `location`, `replaced` became
    /// `inserted`; and the selection before and after.
    private struct Edit: Sendable, Hashable {
        var location: Int
        var replaced: String
        var inserted: String
        var selectionBefore: Range<Int>
        var selectionAfter: Range<Int>
        /// Typing or deleting a character at a time, which one edit can go on.
        var kind: Kind
        enum Kind: Sendable, Hashable { case typing, deletingBackward, deletingForward, other }
    }
    private var undoStack: [Edit] = []
    private var redoStack: [Edit] = []
    /// Whether the next typing may join the last edit.
    private var typingCanJoin = false

    /// The most edits kept for undo.
    public var undoLimit = 100 {
        didSet {
            undoLimit = max(0, undoLimit)
            trimUndo()
        }
    }

    /// `string` with the caret at its end.
    public init(_ string: String = "") {
        units = Array(string.utf16)
        starts = Self.characterStarts(string)
        selection = (starts.count - 1)..<(starts.count - 1)
        anchor = starts.count - 1
    }

    /// The UTF-16 offset where each of `string`'s characters starts, then its end.
    private static func characterStarts(_ string: String) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(string.utf16.count + 1)
        var offset = 0
        for c in string {
            offset += c.utf16.count
            starts.append(offset)
        }
        return starts
    }

    public static func == (a: EditableText, b: EditableText) -> Bool {
        a.units == b.units && a.selection == b.selection && a.markedRange == b.markedRange
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(units)
        hasher.combine(selection.lowerBound)
        hasher.combine(selection.upperBound)
    }

    // MARK: Reading

    /// The characters of `range` (clamped to the text).
    public func text(in range: Range<Int>) -> String {
        String(decoding: units[utf16Range(range)], as: UTF16.self)
    }

    /// The selected text (empty for a caret).
    public var selectedText: String { text(in: selection) }

    /// The UTF-16 offsets of the characters of `range` (clamped).
    public func utf16Range(_ range: Range<Int>) -> Range<Int> {
        let r = clamp(range)
        return starts[r.lowerBound]..<starts[r.upperBound]
    }

    /// The characters that UTF-16 `range` falls in: its ends moved out to
    /// the characters' edges (an offset inside a character, say between
    /// the halves of a surrogate pair, takes in the whole character).
    public func characterRange(utf16 range: Range<Int>) -> Range<Int> {
        let lower = character(atUTF16: range.lowerBound, roundingUp: false)
        let upper = character(atUTF16: range.upperBound, roundingUp: true)
        return lower..<max(lower, upper)
    }

    /// The character whose start is at UTF-16 `offset`, or the one it falls
    /// inside (the next one when `roundingUp`).
    private func character(atUTF16 offset: Int, roundingUp: Bool) -> Int {
        let o = min(max(offset, 0), units.count)
        // The first start at or after `o`.
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] < o { lo = mid + 1 } else { hi = mid }
        }
        return starts[lo] == o || roundingUp ? lo : lo - 1
    }

    private func clamp(_ range: Range<Int>) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count), upper = min(max(range.upperBound, 0), count)
        return lower..<max(lower, upper)
    }

    // MARK: Typing and deleting

    /// Types `text` (`UIKeyInput.insertText`): it replaces the marked text
    /// if an input method is composing (committing it), else the
    /// selection, and the caret goes after it. Consecutive typing is one
    /// edit to undo.
    public mutating func insertText(_ text: String) {
        let range = endComposition() ?? selection
        let joins = typingCanJoin && range.isEmpty && !text.contains(where: \.isNewline)
        replace(range, with: text, kind: .typing, joining: joins)
        typingCanJoin = !text.contains(where: { $0.isNewline || $0.isWhitespace }) || text.count == 1
    }

    /// Deletes the selection, or the `unit` before the caret
    /// (`UIKeyInput.deleteBackward`, and Option- or Control-Backspace by
    /// word). Nothing happens at the start of the text.
    public mutating func deleteBackward(by unit: TextEditingUnit = .character) {
        // An input method handles its own keys; one that reaches here
        // while composing cancels the composition.
        if markedRange != nil { return setMarkedText("", selectedRange: 0..<0) }
        guard selection.isEmpty else { return replace(selection, with: "", kind: .other, joining: false) }
        let from = position(from: selection.lowerBound, backward: true, by: unit)
        guard from < selection.lowerBound else { return }
        replace(from..<selection.lowerBound, with: "", kind: .deletingBackward, joining: typingCanJoin && unit == .character)
        typingCanJoin = unit == .character
    }

    /// Deletes the selection, or the `unit` after the caret (the Delete
    /// key). Nothing happens at the end of the text.
    public mutating func deleteForward(by unit: TextEditingUnit = .character) {
        // An input method handles its own keys; one that reaches here
        // while composing cancels the composition.
        if markedRange != nil { return setMarkedText("", selectedRange: 0..<0) }
        guard selection.isEmpty else { return replace(selection, with: "", kind: .other, joining: false) }
        let to = position(from: selection.upperBound, backward: false, by: unit)
        guard to > selection.upperBound else { return }
        replace(selection.lowerBound..<to, with: "", kind: .deletingForward, joining: typingCanJoin && unit == .character)
        typingCanJoin = unit == .character
    }

    /// Replaces the characters of `range` with `text` (a paste, a
    /// delegate's change), selecting nothing and leaving the caret after
    /// it: one edit to undo.
    public mutating func replace(_ range: Range<Int>, with text: String) {
        unmarkText()
        replace(clamp(range), with: text, kind: .other, joining: false)
    }

    private mutating func replace(_ range: Range<Int>, with text: String, kind: Edit.Kind, joining: Bool) {
        let r = clamp(range)
        let before = selection
        let replaced = self.text(in: r)
        let location = starts[r.lowerBound]
        let caret = r.lowerBound + splice(r, with: text)
        selection = caret..<caret
        anchor = caret
        record(
            Edit(location: location, replaced: replaced, inserted: text, selectionBefore: before, selectionAfter: selection, kind: kind),
            joining: joining)
    }

    /// Puts `text` in place of the characters of `range`, and returns how
    /// many characters it became (which can differ from its own count: a
    /// combining mark joins the character before it).
    @discardableResult
    private mutating func splice(_ range: Range<Int>, with text: String) -> Int {
        let u = utf16Range(range)
        return splice(utf16: u, with: text) - range.lowerBound
    }

    /// Puts `text` in place of UTF-16 `range`; returns the character
    /// its end falls at (rounded up).
    @discardableResult
    private mutating func splice(utf16 range: Range<Int>, with text: String) -> Int {
        let lower = min(max(range.lowerBound, 0), units.count), upper = min(max(range.upperBound, lower), units.count)
        let new = Array(text.utf16)
        units.replaceSubrange(lower..<upper, with: new)
        starts = Self.characterStarts(String(decoding: units, as: UTF16.self))
        return character(atUTF16: lower + new.count, roundingUp: true)
    }

    // MARK: Input methods

    /// Shows `text` as the input method's composition (its pre-edit) in
    /// place of the marked text, or of the selection when there is none
    /// (`UITextInput.setMarkedText`); `selectedRange`, within `text`, is
    /// the input method's caret or selection in it. Empty text ends the
    /// composition, removing what was marked.
    public mutating func setMarkedText(_ text: String, selectedRange inner: Range<Int>) {
        if markedRange == nil { composingOver = selectedText }
        let range = markedRange ?? selection
        let n = splice(range, with: text)
        breakTyping()
        guard n > 0 else {
            // Cancelled: what the composition replaced stays deleted, an
            // edit to undo.
            markedRange = range.lowerBound..<range.lowerBound
            let r = endComposition() ?? range
            if !r.isEmpty { replace(r, with: "", kind: .other, joining: false) }
            return
        }
        markedRange = range.lowerBound..<(range.lowerBound + n)
        let lower = range.lowerBound + min(max(inner.lowerBound, 0), n)
        let upper = range.lowerBound + min(max(inner.upperBound, 0), n)
        selection = lower..<max(lower, upper)
        anchor = selection.lowerBound
    }

    /// Keeps the marked text as it is, as typed text (`unmarkText`): the
    /// composition is committed, one edit to undo, the caret after it.
    public mutating func unmarkText() {
        guard let marked = markedRange else { return }
        insertText(text(in: marked))
    }

    /// What the composition in progress replaced (the selection when it began).
    private var composingOver = ""

    /// Ends the composition, if any, putting back what it replaced (so
    /// that what comes in its place is one edit, undone to the text before
    /// it): that text's range, selected; nil when there was none.
    private mutating func endComposition() -> Range<Int>? {
        guard let marked = markedRange else { return nil }
        markedRange = nil
        let end = splice(marked, with: composingOver) + marked.lowerBound
        composingOver = ""
        selection = marked.lowerBound..<end
        anchor = marked.lowerBound
        return selection
    }

    // MARK: Moving the selection

    /// Moves the caret `backward` (or forward) by `unit`; `extending`
    /// moves only the selection's moving end (Shift held). A selection
    /// moved without extending collapses to its start or end, as the
    /// arrow keys do. Logical order: the caller maps the arrow keys of
    /// right-to-left text.
    public mutating func moveSelection(backward: Bool, by unit: TextEditingUnit, extending: Bool = false) {
        unmarkText()
        breakTyping()
        if extending {
            let moving = selection.lowerBound == anchor ? selection.upperBound : selection.lowerBound
            let to = position(from: moving, backward: backward, by: unit)
            selection = min(anchor, to)..<max(anchor, to)
            return
        }
        let to: Int
        if !selection.isEmpty, unit == .character {
            to = backward ? selection.lowerBound : selection.upperBound
        } else {
            to = position(from: backward ? selection.lowerBound : selection.upperBound, backward: backward, by: unit)
        }
        selection = to..<to
        anchor = to
    }

    /// Selects from the anchor to `index` (a shift-click, a drag), or puts
    /// the caret there when not `extending`.
    public mutating func select(to index: Int, extending: Bool) {
        unmarkText()
        breakTyping()
        let i = min(max(index, 0), count)
        if !extending { anchor = i }
        selection = min(anchor, i)..<max(anchor, i)
    }

    /// Selects the word at `index` (a double-click), or the spaces or
    /// punctuation there when it is not in a word.
    public mutating func selectWord(at index: Int) {
        selectedRange = segment(at: index, paragraphs: false)
    }

    /// Selects the paragraph at `index`, its line break included (a
    /// triple-click).
    public mutating func selectParagraph(at index: Int) {
        selectedRange = segment(at: index, paragraphs: true)
    }

    /// Selects all the text.
    public mutating func selectAll() { selectedRange = 0..<count }

    /// Where `unit` steps to from `index`, backward or forward.
    public func position(from index: Int, backward: Bool, by unit: TextEditingUnit) -> Int {
        let i = min(max(index, 0), count)
        switch unit {
        case .character:
            return backward ? max(0, i - 1) : min(count, i + 1)
        case .word:
            // To the start of the word before (backward) or the end of the
            // word after, over the spaces and punctuation on the way.
            let words = wordRanges()
            if backward {
                return words.last(where: { $0.lowerBound < i })?.lowerBound ?? 0
            }
            return words.first(where: { $0.upperBound > i })?.upperBound ?? count
        case .paragraph:
            let paragraphs = paragraphRanges()
            if backward {
                let p = paragraphs.last(where: { $0.lowerBound < i })
                return p?.lowerBound ?? 0
            }
            // To the end of the paragraph, before its line break.
            guard let p = paragraphs.first(where: { $0.upperBound > i }) else { return count }
            let end = isLineBreak(p.upperBound - 1) ? p.upperBound - 1 : p.upperBound
            return end > i ? end : (paragraphs.first(where: { $0.lowerBound > i }).map(\.upperBound) ?? count)
        case .document:
            return backward ? 0 : count
        }
    }

    /// The word segment (or paragraph) that `index` is in: at a boundary,
    /// the one after it, but at the text's end the last.
    private func segment(at index: Int, paragraphs: Bool) -> Range<Int> {
        let i = min(max(index, 0), count)
        guard count > 0 else { return 0..<0 }
        let ranges = paragraphs ? paragraphRanges() : TextBoundaries.wordSegments(string).map { characterRange(utf16: $0.range) }
        return ranges.first(where: { $0.contains(i) }) ?? ranges.last ?? 0..<count
    }

    /// The words' character ranges, in order.
    private func wordRanges() -> [Range<Int>] {
        TextBoundaries.wordSegments(string).filter(\.isWord).map { characterRange(utf16: $0.range) }
    }

    /// The paragraphs' character ranges, each with its line break.
    private func paragraphRanges() -> [Range<Int>] {
        var result: [Range<Int>] = [], start = 0
        for i in 0..<count where isLineBreak(i) {
            result.append(start..<(i + 1))
            start = i + 1
        }
        if start < count || result.isEmpty { result.append(start..<count) }
        return result
    }

    /// Whether character `i` is a line break (LF, CR, CR LF, VT, FF, NEL,
    /// LS, PS).
    private func isLineBreak(_ i: Int) -> Bool {
        guard i >= 0, i < count else { return false }
        let u = units[starts[i]]
        return u == 0x0A || u == 0x0D || u == 0x85 || u == 0x2028 || u == 0x2029 || u == 0x0B || u == 0x0C
    }

    // MARK: Undo

    /// Whether there is an edit to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Takes back the last edit (a run of typing is one), selecting what
    /// was selected before it. A composition in progress is dropped first.
    public mutating func undo() {
        // A composition in progress is dropped, what it replaced put back.
        _ = endComposition()
        guard let edit = undoStack.popLast() else { return }
        splice(utf16: edit.location..<(edit.location + edit.inserted.utf16.count), with: edit.replaced)
        selection = clamp(edit.selectionBefore)
        anchor = selection.lowerBound
        redoStack.append(edit)
        breakTyping()
    }

    /// Makes the last undone edit again.
    public mutating func redo() {
        guard let edit = redoStack.popLast() else { return }
        splice(utf16: edit.location..<(edit.location + edit.replaced.utf16.count), with: edit.inserted)
        selection = clamp(edit.selectionAfter)
        anchor = selection.lowerBound
        undoStack.append(edit)
        breakTyping()
    }

    private mutating func record(_ edit: Edit, joining: Bool) {
        redoStack.removeAll()
        if joining, var last = undoStack.last, last.kind == edit.kind {
            switch edit.kind {
            case .typing where edit.location == last.location + last.inserted.utf16.count:
                last.inserted += edit.inserted
            case .deletingBackward where edit.location + edit.replaced.utf16.count == last.location:
                last.replaced = edit.replaced + last.replaced
                last.location = edit.location
            case .deletingForward where edit.location == last.location:
                last.replaced += edit.replaced
            default:
                undoStack.append(edit)
                trimUndo()
                return
            }
            last.selectionAfter = edit.selectionAfter
            undoStack[undoStack.count - 1] = last
            return
        }
        undoStack.append(edit)
        trimUndo()
    }

    private mutating func trimUndo() {
        if undoStack.count > undoLimit { undoStack.removeFirst(undoStack.count - undoLimit) }
    }

    /// Ends the run of typing that undo takes back at once.
    private mutating func breakTyping() { typingCanJoin = false }
}

/// How far a caret moves or a deletion reaches.
public enum TextEditingUnit: Sendable, Hashable {
    /// A character (grapheme cluster).
    case character
    /// To the start or end of a word (UAX #29 word boundaries).
    case word
    /// To the start or end of a paragraph (a line of text between line breaks).
    case paragraph
    /// To the start or end of the text.
    case document
}
