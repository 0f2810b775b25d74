import Foundation
import Testing

/// The README's first programs are the examples' own lines, which CI
/// builds, so they cannot go stale: each Swift snippet names the example it
/// is taken from (`Examples/Sources/NAME/main.swift`) in the text before it,
/// and its lines appear in that file in the same order (a snippet may leave
/// lines out, never change one).
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The README's Swift blocks, each with the example the text before it names last.
    static func snippets() throws -> [(example: String?, lines: [String])] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var result: [(String?, [String])] = []
        var prose = "", block: [String]? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var b = block {
                if line == "```" {
                    let named = prose.matches(of: /Examples\/Sources\/(\w+)\/main\.swift/).last.map { String($0.output.1) }
                    result.append((named, b))
                    block = nil
                    prose = ""
                } else {
                    b.append(line)
                    block = b
                }
            } else if line == "```swift" {
                block = []
            } else {
                prose += line + "\n"
            }
        }
        return result
    }

    /// The first line of `snippet` that `source` lacks (or has only
    /// before the line matched last), or nil when every line is there in order.
    static func mismatch(_ snippet: [String], in source: String) -> String? {
        var remaining = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }[...]
        for line in snippet.map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            guard let at = remaining.firstIndex(of: line) else { return line }
            remaining = remaining[(at + 1)...]
        }
        return nil
    }

    static func example(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("Examples/Sources/\(name)/main.swift"), encoding: .utf8)
    }

    @Test func everySnippetIsItsExamplesLines() throws {
        let snippets = try Self.snippets()
        #expect(snippets.count >= 5, "the package snippet and the four first programs")
        for (example, lines) in snippets where lines.first?.hasPrefix("// swift-tools-version") != true {
            let name = try #require(example, "a snippet names no example: \(lines.prefix(2))")
            let missing = Self.mismatch(lines, in: try Self.example(name))
            #expect(missing == nil, "\(name): the README's line is not in the example, or not in this order: \(missing ?? "")")
        }
    }

    @Test func aChangedOrMovedLineIsCaught() throws {
        let (example, lines) = try #require(try Self.snippets().first { $0.example == "CanvasToPNG" })
        let source = try Self.example(try #require(example))
        #expect(Self.mismatch(lines, in: source) == nil)
        let code = lines.indices.filter { !lines[$0].isEmpty && !lines[$0].hasPrefix("import") }
        var changed = lines
        changed[code[1]] += " // changed"
        #expect(Self.mismatch(changed, in: source) == changed[code[1]].trimmingCharacters(in: .whitespaces))
        var moved = lines
        moved.swapAt(code[0], code[2])
        #expect(Self.mismatch(moved, in: source) != nil)
    }
}
