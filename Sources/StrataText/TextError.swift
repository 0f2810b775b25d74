/// Errors thrown by StrataText.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A font file that could not be opened as a font; names the file and says why.
    case fontFile(path: String, reason: String)
    /// No font could be found at all (not even fontconfig's `sans-serif`).
    case noFonts(String)

    public var description: String {
        switch self {
        case let .fontFile(path, reason): "\(path): \(reason)"
        case let .noFonts(reason): "no fonts: \(reason)"
        }
    }
}
