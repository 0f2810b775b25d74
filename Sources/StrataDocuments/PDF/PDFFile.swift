internal import CZlib
import Foundation
import StrataGraphics

/// The bytes of a PDF file as they are written: numbered objects, each
/// remembered by its offset for the cross-reference table, streams
/// compressed with FlateDecode, then the table and the trailer.
struct PDFFile {
    private(set) var bytes: [UInt8] = []
    /// Each object's offset, by number (index 0 is the free head).
    private var offsets: [Int?] = [nil]

    init() {
        // The header, and a comment of bytes above 127 so that tools treat
        // the file as binary.
        append("%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }

    /// A number for an object to be written later.
    mutating func reserve() -> Int {
        offsets.append(nil)
        return offsets.count - 1
    }

    mutating func append(_ b: [UInt8]) { bytes += b }
    mutating func append(_ s: String) { bytes += Array(s.utf8) }

    /// Writes object `number` with `body` (its dictionary or value).
    mutating func write(_ number: Int, _ body: String) {
        offsets[number] = bytes.count
        append("\(number) 0 obj\n")
        append(body)
        append("\nendobj\n")
    }

    /// Writes object `number` as a stream of `data` with the entries of
    /// `dictionary` (without the braces), compressed when that makes it
    /// smaller.
    mutating func writeStream(_ number: Int, dictionary: String = "", data: [UInt8]) {
        var body = data
        var filter = ""
        if data.count > 64, let packed = PDFFile.deflate(data), packed.count < data.count {
            body = packed
            filter = " /Filter /FlateDecode"
        }
        offsets[number] = bytes.count
        append("\(number) 0 obj\n<<\(dictionary.isEmpty ? "" : " " + dictionary) /Length \(body.count)\(filter) >>\nstream\n")
        append(body)
        append("\nendstream\nendobj\n")
    }

    /// zlib's DEFLATE with its header and checksum, as FlateDecode reads it.
    static func deflate(_ data: [UInt8]) -> [UInt8]? {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in compress2(o.baseAddress, &size, i.baseAddress, uLong(data.count), 6) }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(size)...)
        return out
    }

    /// Ends the file: the cross-reference table (every object must have
    /// been written) and the trailer naming `root` and `info`.
    mutating func finish(root: Int, info: Int, id: [UInt8]) {
        let xref = bytes.count
        append("xref\n0 \(offsets.count)\n0000000000 65535 f \n")
        for offset in offsets.dropFirst() {
            // An object reserved and never written is listed as free.
            if let offset {
                append(String(repeating: "0", count: max(0, 10 - String(offset).count)) + "\(offset) 00000 n \n")
            } else {
                append("0000000000 00000 f \n")
            }
        }
        let hex = id.map { String(format: "%02X", $0) }.joined()
        append("trailer\n<< /Size \(offsets.count) /Root \(root) 0 R /Info \(info) 0 R /ID [<\(hex)> <\(hex)>] >>\n")
        append("startxref\n\(xref)\n%%EOF\n")
    }
}

/// PDF's ways of writing values.
enum PDFSyntax {
    /// `v` as a PDF number: an integer when whole, otherwise with up to four
    /// decimals and no exponent; NaN and infinities (which PDF cannot say)
    /// as 0, numbers beyond ±32767 × 1000 held there.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let held = min(32_767_000, max(-32_767_000, v))
        let scaled = (held * 10_000).rounded()
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let whole = magnitude / 10_000
        var fraction = magnitude % 10_000
        var text = (negative ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 4
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }

    /// `t`'s six numbers, `a b c d tx ty`, as PDF's `cm` and SVG's
    /// `matrix()` take them.
    static func matrix(_ t: Transform) -> String {
        [t.a, t.b, t.c, t.d, t.tx, t.ty].map(number).joined(separator: " ")
    }

    /// `s` as a PDF text string: a literal string in PDFDocEncoding's
    /// ASCII part with `(`, `)` and `\` escaped, or UTF-16BE with a byte
    /// order mark in hex when it has anything else.
    static func textString(_ s: String) -> String {
        if s.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            var out = "("
            for c in s.unicodeScalars {
                switch c {
                case "(", ")", "\\": out += "\\" + String(c)
                default: out.unicodeScalars.append(c)
                }
            }
            return out + ")"
        }
        var hex = "<FEFF"
        for unit in s.utf16 { hex += String(format: "%04X", unit) }
        return hex + ">"
    }

    /// `date` as a PDF date, in UTC: `D:YYYYMMDDHHmmSSZ`.
    static func date(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMddHHmmss"
        return "(D:\(f.string(from: date))Z)"
    }
}
