/// Small hostile image files, written byte by byte: the tests and `strata-bench
/// limits` feed them to the decoders.
public enum HostileFiles {
    /// CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG chunk: length, type, data, CRC. `declaredLength` overrides the
    /// length written (a lie about the data that follows).
    public static func chunk(_ type: String, _ data: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        let t = Array(type.utf8)
        return be32(declaredLength ?? UInt32(data.count)) + t + data + be32(crc32(t + data))
    }

    /// An IHDR chunk.
    public static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6, interlace: UInt8 = 0) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, interlace])
    }

    /// A zlib stream of `count` zero bytes: one literal, then matches of 258
    /// bytes at distance 1, in a fixed-Huffman deflate block (about 13 bits
    /// per 258 bytes, so a blank 1-bit image of millions of pixels takes a few
    /// tens of kilobytes, as a PNG encoder would make it).
    public static func zlibZeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var bitBuffer: UInt64 = 0, bitCount = 0
        func bits(_ value: UInt32, _ n: Int) {  // LSB first
            bitBuffer |= UInt64(value) << UInt64(bitCount)
            bitCount += n
            while bitCount >= 8 {
                out.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        func huffman(_ code: UInt32, _ n: Int) {  // Huffman codes go MSB first
            var reversed: UInt32 = 0
            for i in 0..<n where code & (1 << UInt32(i)) != 0 { reversed |= 1 << UInt32(n - 1 - i) }
            bits(reversed, n)
        }
        bits(1, 1)  // final block
        bits(1, 2)  // fixed Huffman
        var left = count
        if left > 0 {
            huffman(0x30, 8)  // literal 0
            left -= 1
        }
        while left >= 258 {
            huffman(0b1100_0101, 8)  // length 258 (code 285)
            huffman(0, 5)  // distance 1
            left -= 258
        }
        while left > 0 {
            huffman(0x30, 8)
            left -= 1
        }
        huffman(0, 7)  // end of block
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        // Adler-32 of zeros: a stays 1, b grows by 1 a byte.
        let b = UInt32(count % 65521)
        return out + be32(b << 16 | 1)
    }

    /// A valid 1-bit grey PNG, all black: `width` × `height` pixels in a file
    /// of a few kilobytes.
    public static func blankPNG(width: UInt32, height: UInt32) -> [UInt8] {
        let rowBytes = (Int(width) + 7) / 8 + 1
        return pngSignature + ihdr(width: width, height: height, bitDepth: 1, colorType: 0)
            + chunk("IDAT", zlibZeros(rowBytes * Int(height))) + chunk("IEND", [])
    }

    /// The offset of the first JPEG marker `code` (0xFF, code), if any.
    public static func jpegMarker(_ code: UInt8, in bytes: [UInt8]) -> Int? {
        var i = 2
        while i + 1 < bytes.count {
            if bytes[i] == 0xFF && bytes[i + 1] == code { return i }
            i += 1
        }
        return nil
    }

    /// `jpeg` with the size in its frame header (SOF0/SOF1/SOF2) changed.
    public static func jpeg(_ jpeg: [UInt8], declaringWidth width: UInt16, height: UInt16) -> [UInt8] {
        var out = jpeg
        guard let sof = [0xC0, 0xC1, 0xC2].compactMap({ jpegMarker($0, in: jpeg) }).min() else { return out }
        // FF Cn, length (2), precision (1), height (2), width (2).
        out[sof + 5] = UInt8(height >> 8); out[sof + 6] = UInt8(height & 0xFF)
        out[sof + 7] = UInt8(width >> 8); out[sof + 8] = UInt8(width & 0xFF)
        return out
    }

    /// A progressive `jpeg` whose last scan is repeated `times` more times.
    public static func jpeg(_ jpeg: [UInt8], repeatingLastScan times: Int) -> [UInt8] {
        var lastScan = 0
        var i = 2
        while i + 1 < jpeg.count {
            if jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA { lastScan = i }
            i += 1
        }
        guard lastScan > 0, let end = jpeg.lastIndex(of: 0xD9).map({ $0 - 1 }), end > lastScan else { return jpeg }
        let scan = Array(jpeg[lastScan..<end])
        var out = Array(jpeg[..<end])
        for _ in 0..<times { out += scan }
        return out + [0xFF, 0xD9]
    }
}

extension HostileFiles {
    /// `font` (a TrueType or OpenType file) with its `head.unitsPerEm`
    /// changed to `unitsPerEm`, and every occurrence of its family name
    /// `family` (in ASCII and in UTF-16, as the `name` table holds it)
    /// replaced by `newFamily`, which must be as long. nil when the file has
    /// no `head` table or the names differ in length.
    public static func font(_ font: [UInt8], unitsPerEm: UInt16, renaming family: String, to newFamily: String) -> [UInt8]? {
        guard font.count >= 12, family.utf8.count == newFamily.utf8.count, family.allSatisfy(\.isASCII),
            newFamily.allSatisfy(\.isASCII)
        else { return nil }
        var out = font
        let tables = Int(font[4]) << 8 | Int(font[5])
        var patched = false
        for i in 0..<tables {
            let entry = 12 + 16 * i
            guard entry + 16 <= font.count else { return nil }
            if font[entry..<entry + 4].elementsEqual("head".utf8) {
                let offset = Int(font[entry + 8]) << 24 | Int(font[entry + 9]) << 16 | Int(font[entry + 10]) << 8 | Int(font[entry + 11])
                guard offset + 20 <= font.count else { return nil }
                out[offset + 18] = UInt8(unitsPerEm >> 8)
                out[offset + 19] = UInt8(unitsPerEm & 0xFF)
                patched = true
            }
        }
        guard patched else { return nil }
        func replace(_ old: [UInt8], _ new: [UInt8]) {
            guard !old.isEmpty else { return }
            var i = 0
            while i + old.count <= out.count {
                if out[i] == old[0], out[i..<i + old.count].elementsEqual(old) {
                    out.replaceSubrange(i..<i + old.count, with: new)
                    i += old.count
                } else {
                    i += 1
                }
            }
        }
        replace(Array(family.utf8), Array(newFamily.utf8))
        replace(family.utf8.flatMap { [0, $0] }, newFamily.utf8.flatMap { [0, $0] })
        return out
    }
}
