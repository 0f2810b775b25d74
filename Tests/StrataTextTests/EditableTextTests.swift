import StrataText
import Testing

@Suite struct EditableTextTests {
    /// Types `text` a character at a time, as keys do.
    func type(_ text: String, into e: inout EditableText) {
        for c in text { e.insertText(String(c)) }
    }

    @Test func typingPutsTheCaretAfterEachCharacterAndMarksJoinTheirLetter() {
        var e = EditableText()
        #expect(e.count == 0 && e.selectedRange == 0..<0 && e.string.isEmpty)
        type("héllo", into: &e)
        #expect(e.string == "héllo" && e.count == 5 && e.selectedRange == 5..<5)
        // A combining acute typed after an "e" becomes part of its character.
        e.insertText("e")
        e.insertText("\u{301}")
        #expect(e.count == 6 && e.selectedRange == 6..<6 && e.string == "hélloe\u{301}")
        // Typing over a selection replaces it.
        e.selectedRange = 1..<5
        e.insertText("i")
        #expect(e.string == "hie\u{301}" && e.selectedRange == 2..<2)
    }

    @Test func charactersAreGraphemeClusters() {
        var e = EditableText("a👨‍👩‍👧🇫🇷b")
        #expect(e.count == 4)
        e.selectedRange = 3..<3
        e.deleteBackward()
        #expect(e.string == "a👨‍👩‍👧b" && e.selectedRange == 2..<2)
        e.deleteBackward()
        #expect(e.string == "ab" && e.selectedRange == 1..<1)
        e = EditableText("x🇫🇷y")
        e.selectedRange = 0..<0
        e.moveSelection(backward: false, by: .character)
        e.moveSelection(backward: false, by: .character)
        #expect(e.selectedRange == 2..<2)
        e.deleteForward()
        #expect(e.string == "x🇫🇷")
        // Nothing before the start or after the end.
        e.deleteForward()
        e.selectedRange = 0..<0
        e.deleteBackward()
        #expect(e.string == "x🇫🇷" && e.selectedRange == 0..<0)
    }

    @Test func wordsAreStepsForMovingAndDeleting() {
        var e = EditableText("Hello, world  again")
        e.selectedRange = 0..<0
        e.moveSelection(backward: false, by: .word)
        #expect(e.selectedRange == 5..<5)
        e.moveSelection(backward: false, by: .word)
        #expect(e.selectedRange == 12..<12)
        e.moveSelection(backward: false, by: .word)
        e.moveSelection(backward: false, by: .word)
        #expect(e.selectedRange == 19..<19)
        e.moveSelection(backward: true, by: .word)
        #expect(e.selectedRange == 14..<14)
        e.moveSelection(backward: true, by: .word)
        #expect(e.selectedRange == 7..<7)
        // Option-Backspace from the end takes the last word; again, the
        // spaces and the word before.
        e.selectedRange = 19..<19
        e.deleteBackward(by: .word)
        #expect(e.string == "Hello, world  ")
        e.deleteBackward(by: .word)
        #expect(e.string == "Hello, ")
        e.selectedRange = 0..<0
        e.deleteForward(by: .word)
        #expect(e.string == ", ")
    }

    @Test func chineseWordsComeFromTheDictionary() {
        var e = EditableText("你好世界")
        e.selectWord(at: 1)
        #expect(e.selectedRange == 0..<2 && e.selectedText == "你好")
        e.selectedRange = 0..<0
        e.moveSelection(backward: false, by: .word)
        #expect(e.selectedRange == 2..<2)
    }

    @Test func shiftExtendsFromTheAnchorAndArrowsCollapse() {
        var e = EditableText("abcdefgh")
        e.selectedRange = 5..<5
        e.moveSelection(backward: true, by: .character, extending: true)
        e.moveSelection(backward: true, by: .character, extending: true)
        #expect(e.selectedRange == 3..<5)
        // The moving end goes past the anchor: the selection turns over.
        e.moveSelection(backward: false, by: .character, extending: true)
        e.moveSelection(backward: false, by: .character, extending: true)
        e.moveSelection(backward: false, by: .character, extending: true)
        #expect(e.selectedRange == 5..<6)
        e.moveSelection(backward: false, by: .document, extending: true)
        #expect(e.selectedRange == 5..<8)
        e.moveSelection(backward: true, by: .character)
        #expect(e.selectedRange == 5..<5)
        e.selectedRange = 1..<4
        e.moveSelection(backward: false, by: .character)
        #expect(e.selectedRange == 4..<4)
        // A click, then a shift-click before it, then a drag after it.
        e.select(to: 6, extending: false)
        e.select(to: 2, extending: true)
        #expect(e.selectedRange == 2..<6)
        e.select(to: 7, extending: true)
        #expect(e.selectedRange == 6..<7)
    }

    @Test func clicksSelectWordsAndParagraphs() {
        var e = EditableText("Hello, world\nsecond line\nthird")
        e.selectWord(at: 8)
        #expect(e.selectedText == "world")
        e.selectWord(at: 5)
        #expect(e.selectedText == ",")
        e.selectParagraph(at: 15)
        #expect(e.selectedText == "second line\n" && e.selectedRange == 13..<25)
        e.selectParagraph(at: 27)
        #expect(e.selectedText == "third")
        e.selectedRange = 15..<15
        e.moveSelection(backward: false, by: .paragraph)
        #expect(e.selectedRange == 24..<24)
        e.moveSelection(backward: true, by: .paragraph)
        #expect(e.selectedRange == 13..<13)
        e.selectAll()
        #expect(e.selectedRange == 0..<e.count)
        var empty = EditableText()
        empty.selectWord(at: 3)
        empty.selectParagraph(at: 0)
        #expect(empty.selectedRange == 0..<0)
    }

    @Test func typingIsOneEditToUndoAndRedo() {
        var e = EditableText("start ")
        #expect(!e.canUndo)
        type("abc def", into: &e)
        #expect(e.canUndo)
        e.undo()
        #expect(e.string == "start " && e.selectedRange == 6..<6 && e.canRedo)
        e.redo()
        #expect(e.string == "start abc def" && e.selectedRange == 13..<13)
        // A run of backspaces is one edit too; moving the caret ends a run.
        e.deleteBackward()
        e.deleteBackward()
        e.deleteBackward()
        #expect(e.string == "start abc ")
        e.moveSelection(backward: true, by: .character)
        e.insertText("X")
        #expect(e.string == "start abcX ")
        e.undo()
        #expect(e.string == "start abc ")
        e.undo()
        #expect(e.string == "start abc def")
        // A new edit drops what could be redone.
        e.insertText("!")
        #expect(!e.canRedo)
    }

    @Test func theUndoLimitKeepsTheLatestEdits() {
        var e = EditableText()
        e.undoLimit = 2
        e.replace(0..<0, with: "a")
        e.replace(1..<1, with: "b")
        e.replace(2..<2, with: "c")
        e.undo()
        e.undo()
        e.undo()
        #expect(e.string == "a" && !e.canUndo)
        e.undoLimit = -3
        e.replace(0..<1, with: "z")
        #expect(!e.canUndo && e.string == "z")
    }

    @Test func anInputMethodComposesMarkedTextThenCommitsIt() {
        var e = EditableText("x")
        e.setMarkedText("n", selectedRange: 1..<1)
        e.setMarkedText("ni", selectedRange: 2..<2)
        #expect(e.string == "xni" && e.markedRange == 1..<3 && e.selectedRange == 3..<3)
        // The pre-edit turns into its candidate, then is committed.
        e.setMarkedText("你", selectedRange: 1..<1)
        #expect(e.string == "x你" && e.markedRange == 1..<2)
        e.unmarkText()
        #expect(e.string == "x你" && e.markedRange == nil && e.selectedRange == 2..<2)
        // Committing by typing the text (an input method's commit) replaces the marked text.
        e.setMarkedText("hao", selectedRange: 3..<3)
        e.insertText("好")
        #expect(e.string == "x你好" && e.markedRange == nil && e.selectedRange == 3..<3)
        e.undo()
        #expect(e.string == "x你")
        e.undo()
        #expect(e.string == "x")
        // Marked text replaces the selection; empty marked text cancels.
        e.selectAll()
        e.setMarkedText("k", selectedRange: 0..<1)
        #expect(e.string == "k" && e.markedRange == 0..<1 && e.selectedRange == 0..<1)
        e.setMarkedText("", selectedRange: 0..<0)
        #expect(e.string.isEmpty && e.markedRange == nil && e.selectedRange == 0..<0)
        // A selection inside the marked text out of range is held to it.
        e.setMarkedText("ab", selectedRange: -4..<99)
        #expect(e.selectedRange == 0..<2)
        // Undo drops a composition in progress.
        e.undo()
        #expect(e.markedRange == nil)
    }

    @Test func aCompositionOverASelectionIsOneEditToUndo() {
        var e = EditableText("pick this")
        e.selectedRange = 5..<9
        e.setMarkedText("zh", selectedRange: 2..<2)
        e.setMarkedText("这", selectedRange: 1..<1)
        e.unmarkText()
        #expect(e.string == "pick 这" && e.selectedRange == 6..<6)
        e.undo()
        #expect(e.string == "pick this" && e.selectedRange == 5..<9)
        // Cancelled, what it replaced stays deleted: one edit to undo.
        e.setMarkedText("x", selectedRange: 1..<1)
        e.setMarkedText("", selectedRange: 0..<0)
        #expect(e.string == "pick " && e.markedRange == nil)
        e.undo()
        #expect(e.string == "pick this")
        // Moving the caret commits the composition first.
        e.selectedRange = 4..<4
        e.setMarkedText("ab", selectedRange: 2..<2)
        e.moveSelection(backward: true, by: .character)
        #expect(e.string == "pickab this" && e.markedRange == nil && e.selectedRange == 5..<5)
        // A backspace that reaches the field while composing cancels it.
        e.setMarkedText("q", selectedRange: 1..<1)
        e.deleteBackward()
        #expect(e.string == "pickab this" && e.markedRange == nil)
    }

    @Test func utf16OffsetsConvertToCharactersAndBack() {
        let e = EditableText("a😀é\u{301}b")
        #expect(e.count == 4)
        #expect(e.utf16Range(1..<2) == 1..<3)
        #expect(e.utf16Range(2..<3) == 3..<5)
        // Inside the surrogate pair: the whole emoji.
        #expect(e.characterRange(utf16: 2..<2) == 1..<1 || e.characterRange(utf16: 2..<2) == 1..<2)
        #expect(e.characterRange(utf16: 2..<3) == 1..<2)
        #expect(e.characterRange(utf16: 5..<6) == 3..<4)
        #expect(e.characterRange(utf16: -3..<99) == 0..<4)
    }

    @Test func rangesOutsideTheTextAreHeldToIt() {
        var e = EditableText("abc")
        e.selectedRange = -5..<100
        #expect(e.selectedRange == 0..<3)
        e.replace(50..<60, with: "z")
        #expect(e.string == "abcz" && e.selectedRange == 4..<4)
        #expect(e.text(in: -1..<2) == "ab")
        e.select(to: -10, extending: true)
        #expect(e.selectedRange == 0..<4)
        #expect(e.position(from: 99, backward: false, by: .word) == 4)
        #expect(e.position(from: -99, backward: true, by: .paragraph) == 0)
    }
}
