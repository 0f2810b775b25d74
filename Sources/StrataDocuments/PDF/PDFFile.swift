internal import CISAL
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
        bytes = PDFBuffers.take(capacity: 1 << 16, largest: true)
        scratch = PDFBuffers.take(capacity: 0, largest: false)
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
    mutating func reserveCapacity(_ n: Int) { bytes.reserveCapacity(n) }

    /// The file's bytes, and the compression scratch handed to the buffers
    /// kept for the next document (`PDFBuffers`).
    mutating func takeBytes() -> [UInt8] {
        PDFBuffers.give(scratch)
        scratch = []
        let b = bytes
        bytes = []
        return b
    }
    mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// Where streams are compressed before they are copied into the file,
    /// kept from stream to stream (a fresh buffer each time costs its
    /// pages' first touch, as much as the compression).
    private var scratch: [UInt8] = []

    /// Writes object `number` with `body` (its dictionary or value).
    mutating func write(_ number: Int, _ body: String) {
        offsets[number] = bytes.count
        append("\(number) 0 obj\n")
        append(body)
        append("\nendobj\n")
    }

    /// How streams are compressed (`PDFDocument.Compression`).
    var compression = PDFDocument.Compression.fast

    /// Writes object `number` as a stream of `data` with the entries of
    /// `dictionary` (without the braces), compressed when that makes it
    /// smaller (`compressed`, when given, is `data` compressed already).
    mutating func writeStream(_ number: Int, dictionary: String = "", data: [UInt8], compressed: [UInt8]? = nil) {
        data.withUnsafeBufferPointer { writeStream(number, dictionary: dictionary, data: $0, compressed: compressed) }
    }

    mutating func writeStream(_ number: Int, dictionary: String = "", data: UnsafeBufferPointer<UInt8>, compressed: [UInt8]? = nil) {
        if let compressed {
            if compressed.count < data.count {
                compressed.withUnsafeBufferPointer { writeStreamObject(number, dictionary, filter: " /Filter /FlateDecode", body: $0) }
            } else {
                writeStreamObject(number, dictionary, filter: "", body: data)
            }
            return
        }
        if data.count > 64, let length = PDFFile.deflate(data, compression, into: &scratch), length < data.count {
            let packed = scratch
            packed.withUnsafeBufferPointer {
                writeStreamObject(number, dictionary, filter: " /Filter /FlateDecode", body: UnsafeBufferPointer(rebasing: $0[0..<length]))
            }
        } else {
            writeStreamObject(number, dictionary, filter: "", body: data)
        }
    }

    /// Writes object `number` as a stream of `data` already encoded as
    /// `dictionary`'s `/Filter` says (a JPEG file for `DCTDecode`).
    mutating func writeStream(_ number: Int, dictionary: String, encoded data: [UInt8]) {
        data.withUnsafeBufferPointer { writeStreamObject(number, dictionary, filter: "", body: $0) }
    }

    /// Object `number`: `dictionary`'s entries, `filter`'s, the length, and
    /// `body` as the stream.
    private mutating func writeStreamObject(_ number: Int, _ dictionary: String, filter: String, body: UnsafeBufferPointer<UInt8>) {
        offsets[number] = bytes.count
        append("\(number) 0 obj\n<<\(dictionary.isEmpty ? "" : " " + dictionary) /Length \(body.count)\(filter) >>\nstream\n")
        bytes.append(contentsOf: body)
        append("\nendstream\nendobj\n")
    }

    /// DEFLATE with zlib's header and checksum, as FlateDecode reads it,
    /// into the start of `out` (grown as needed): ISA-L's igzip at its
    /// level 3 (`.fast`), or zlib at level 9 (`.small`). The length
    /// written; nil with `.none` or on failure.
    static func deflate(_ data: UnsafeBufferPointer<UInt8>, _ compression: PDFDocument.Compression, into out: inout [UInt8]) -> Int? {
        guard compression != .none, let source = data.baseAddress else { return nil }
        // Stored blocks at worst: 5 bytes a 65,535 (zlib's bound is
        // within this), plus the header and checksum.
        let bound = data.count + data.count / 8_000 + 128
        if out.count < bound {
            // Grown in place when there is room (kept storage is reused).
            out.reserveCapacity(bound)
            out.append(contentsOf: repeatElement(0, count: bound - out.count))
        }
        switch compression {
        case .none:
            return nil  // (not reached: returned above)
        case .small:
            var size = uLong(out.count)
            let status = out.withUnsafeMutableBufferPointer { o in
                compress2(o.baseAddress, &size, source, uLong(data.count), 9)
            }
            return status == Z_OK ? Int(size) : nil
        case .fast:
            guard data.count < Int(UInt32.max / 2) else { return nil }
            let levelSize = Int(strata_isal_level3_buffer_size())
            let levelBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: levelSize)
            defer { levelBuffer.deallocate() }
            return out.withUnsafeMutableBufferPointer { o in
                do {
                    var stream = isal_zstream()
                    isal_deflate_stateless_init(&stream)
                    stream.level = 3
                    stream.level_buf = levelBuffer
                    stream.level_buf_size = UInt32(levelSize)
                    stream.gzip_flag = UInt16(IGZIP_ZLIB)
                    stream.end_of_stream = 1
                    stream.flush = UInt16(NO_FLUSH)
                    stream.next_in = UnsafeMutablePointer(mutating: source)
                    stream.avail_in = UInt32(data.count)
                    stream.next_out = o.baseAddress
                    stream.avail_out = UInt32(o.count)
                    let status = isal_deflate_stateless(&stream)
                    return status == COMP_OK && stream.avail_in == 0 ? Int(stream.total_out) : nil
                }
            }
        }
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
    /// as 0, numbers beyond ±32767 × 1000 held there. (Content streams
    /// write theirs to three decimals: `PDFContent.number`.)
    static func number(_ v: Double) -> String {
        var buffer: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &buffer) { b in
            let count = PDFContent.format(v, decimals: 4, into: b) - 1
            return String(decoding: UnsafeRawBufferPointer(rebasing: b[0..<count]), as: UTF8.self)
        }
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
        // Held to the years 1 to 9999, which the format can write.
        let seconds = date.timeIntervalSince1970
        var t = time_t(seconds.isFinite ? min(253_402_300_799, max(-62_135_596_800, seconds.rounded(.down))) : 0)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(
            format: "(D:%04d%02d%02d%02d%02d%02dZ)", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
