/// Something tappable found in a post's text: a mention, a topic, a link or
/// an emoticon code.
public struct TextEntity: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `@name`: letters, digits (any script), `_` and `-` after an @ that
        /// does not follow a letter or digit (so mail addresses are not mentions).
        case mention
        /// `#words#`: up to 40 characters, on one line, between two #.
        case topic
        /// `http://` or `https://` and everything up to a space or a
        /// newline, less trailing punctuation (`.,;:!?)` and CJK
        /// punctuation), so a sentence's full stop stays out.
        case link
        /// `[code]`: one of `TextEntities.emoticons`' codes, shown as its emoji.
        case emoticon
    }

    public var kind: Kind
    /// The characters it covers in the text it was found in.
    public var range: Range<Int>
    /// The name without @, the topic without #, the URL, or the emoji.
    public var payload: String

    public init(kind: Kind, range: Range<Int>, payload: String) {
        self.kind = kind
        self.range = range
        self.payload = payload
    }
}

/// Finds mentions, topics, links and emoticon codes in text, for feed
/// cells: found once, when a row's layout is computed, and styled and
/// linked in the attributed text, so taps hit-test the layout directly.
public enum TextEntities {
    /// Emoticon codes and the emoji they stand for.
    public static let emoticons: [String: String] = [
        "smile": "😊", "laugh": "😂", "heart": "❤️", "cry": "😢", "thumbsup": "👍", "fire": "🔥", "clap": "👏",
        "think": "🤔", "party": "🎉", "coffee": "☕",
    ]

    /// The entities of `text`, in order, not overlapping.
    public static func find(in text: String) -> [TextEntity] {
        let chars = Array(text)
        var out: [TextEntity] = []
        var i = 0
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" }
        while i < chars.count {
            let c = chars[i]
            if c == "@", i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber) {
                var j = i + 1
                while j < chars.count && isWord(chars[j]) { j += 1 }
                if j > i + 1 {
                    out.append(TextEntity(kind: .mention, range: i..<j, payload: String(chars[(i + 1)..<j])))
                    i = j
                    continue
                }
            } else if c == "#" {
                var j = i + 1
                while j < chars.count && j - i <= 41 && chars[j] != "#" && !chars[j].isNewline { j += 1 }
                if j < chars.count, chars[j] == "#", j > i + 1 {
                    let name = String(chars[(i + 1)..<j])
                    if !name.allSatisfy(\.isWhitespace) {
                        out.append(TextEntity(kind: .topic, range: i..<(j + 1), payload: name))
                        i = j + 1
                        continue
                    }
                }
            } else if c == "h", let end = linkEnd(chars, from: i) {
                out.append(TextEntity(kind: .link, range: i..<end, payload: String(chars[i..<end])))
                i = end
                continue
            } else if c == "[" {
                var j = i + 1
                while j < chars.count && j - i <= 12 && chars[j].isLetter && chars[j].isASCII { j += 1 }
                if j < chars.count, chars[j] == "]", let emoji = emoticons[String(chars[(i + 1)..<j])] {
                    out.append(TextEntity(kind: .emoticon, range: i..<(j + 1), payload: emoji))
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        return out
    }

    private static let trailing: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "。", "，", "；", "：", "！", "？", "）", "」", "、"]

    private static func linkEnd(_ chars: [Character], from i: Int) -> Int? {
        let schemes = ["https://", "http://"]
        for scheme in schemes {
            let s = Array(scheme)
            guard i + s.count < chars.count, Array(chars[i..<(i + s.count)]) == s else { continue }
            var j = i + s.count
            while j < chars.count && !chars[j].isWhitespace && chars[j].isASCII { j += 1 }
            while j > i + s.count && trailing.contains(chars[j - 1]) { j -= 1 }
            return j > i + s.count ? j : nil
        }
        return nil
    }
}
