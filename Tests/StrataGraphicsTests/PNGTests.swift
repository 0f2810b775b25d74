import Testing

@testable import StrataGraphics

/// The straight RGBA of pixel (x, y) in the colour fixtures (make_fixtures.py's `value`).
private func value(_ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
    (x * 60 + 15, y * 100 + 5, 200 - x * 40, 255 - (x + y) * 30)
}

private func premultiplied(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> Pixel {
    Pixel(
        r: Pixel.multiply(UInt8(r), UInt8(a)), g: Pixel.multiply(UInt8(g), UInt8(a)),
        b: Pixel.multiply(UInt8(b), UInt8(a)), a: UInt8(a))
}

@Suite struct PNGTests {
    @Test func decodesRGBA() throws {
        let image = try Image(contentsOfPNGFile: resource("rgba8.png"))
        #expect(image.width == 4 && image.height == 3)
        for y in 0..<3 {
            for x in 0..<4 {
                let v = value(x, y)
                #expect(image[x, y] == premultiplied(v.0, v.1, v.2, v.3))
            }
        }
    }

    @Test(arguments: ["rgb8.png", "rgb8-interlaced.png"])
    func decodesRGB(file: String) throws {
        let image = try Image(contentsOfPNGFile: resource(file))
        for y in 0..<3 {
            for x in 0..<4 {
                let v = value(x, y)
                #expect(image[x, y] == Pixel(r: UInt8(v.0), g: UInt8(v.1), b: UInt8(v.2), a: 255))
            }
        }
    }

    @Test func decodesGreyscaleDepths() throws {
        let g8 = try Image(contentsOfPNGFile: resource("gray8.png"))
        let g16 = try Image(contentsOfPNGFile: resource("gray16.png"))
        let ga = try Image(contentsOfPNGFile: resource("gray-alpha8.png"))
        for y in 0..<3 {
            for x in 0..<4 {
                let v = value(x, y)
                let grey = UInt8(v.0)
                #expect(g8[x, y] == Pixel(r: grey, g: grey, b: grey, a: 255))
                #expect(g16[x, y] == Pixel(r: grey, g: grey, b: grey, a: 255))
                #expect(ga[x, y] == premultiplied(v.0, v.0, v.0, v.3))
            }
        }
        let g1 = try Image(contentsOfPNGFile: resource("gray1.png"))
        #expect(g1[0, 0] == Pixel(r: 0, g: 0, b: 0, a: 255) && g1[1, 0] == Pixel(r: 255, g: 255, b: 255, a: 255))
    }

    @Test func decodesPaletteWithTransparency() throws {
        let image = try Image(contentsOfPNGFile: resource("palette-trns.png"))
        #expect(image[0, 0] == Pixel(r: 255, g: 0, b: 0, a: 255))
        #expect(image[1, 0] == Pixel(r: 0, g: 128, b: 0, a: 128))  // colour 1 is half transparent
        #expect(image[2, 0] == Pixel(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func roundTripIsExact() throws {
        // Premultiplied → straight → premultiplied is exact for 8-bit values.
        var bytes: [UInt8] = []
        for a in stride(from: 0, through: 255, by: 15) {
            for c in stride(from: 0, through: a, by: max(1, a / 7)) {
                bytes += [UInt8(c), UInt8(a / 2), UInt8(a), UInt8(a)]
            }
        }
        let width = bytes.count / 4
        let image = try Image(width: width, height: 1, premultipliedPixels: bytes)
        let decoded = try Image(pngData: try image.pngData())
        #expect(decoded == image)
        let canvas = makeCanvas(33, 17)
        canvas.fillColor = Color(red: 0.2, green: 0.7, blue: 0.4, alpha: 0.6)
        canvas.fillEllipse(in: Rect(x: 1, y: 1, width: 30, height: 14))
        let drawn = canvas.makeImage()
        #expect(try Image(pngData: drawn.pngData(compressionLevel: 0)) == drawn)
        #expect(try Image(pngData: drawn.pngData(compressionLevel: 9)) == drawn)
    }

    /// The fast encoder (ISA-L) and every filter it takes give back the
    /// same pixels; opaque pictures become RGB, translucent ones stay RGBA.
    @Test func fastEncodingRoundTrips() throws {
        let canvas = makeCanvas(301, 123)
        canvas.fillColor = Color(red: 0.2, green: 0.7, blue: 0.4, alpha: 0.6)
        canvas.fillEllipse(in: Rect(x: 1, y: 1, width: 290, height: 110))
        let translucent = canvas.makeImage()
        canvas.blendMode = .destinationOver
        canvas.fillColor = .white
        canvas.fill(Rect(x: 0, y: 0, width: 301, height: 123))
        let opaque = canvas.makeImage()
        #expect(opaque.isOpaque && !translucent.isOpaque)
        for filter in [PNGEncoding.Filter.none, .sub, .up] {
            for level in 0...3 {
                let e = PNGEncoding(deflater: .isal, compressionLevel: level, filter: filter, omitsOpaqueAlpha: true)
                let o = try opaque.pngData(e), t = try translucent.pngData(e)
                #expect(o[25] == 2 && t[25] == 6)  // IHDR colour type: RGB, RGBA
                #expect(try Image(pngData: o) == opaque)
                #expect(try Image(pngData: t) == translucent)
            }
        }
        // zlib with a strategy and one filter, and alpha kept.
        let z = PNGEncoding(deflater: .zlib, compressionLevel: 1, strategy: .rle, filter: .sub)
        #expect(try Image(pngData: opaque.pngData(z)) == opaque)
        #expect(try opaque.pngData(z)[25] == 6)
        // Levels are held to their range; no filter means none.
        #expect(PNGEncoding(compressionLevel: 40).compressionLevel == 9)
        #expect(PNGEncoding(filter: []).filter == .none)
        let empty = try Image(width: 0, height: 3, premultipliedPixels: [])
        #expect(throws: GraphicsError.self) { try empty.pngData(.fast) }
        let one = try Image(width: 1, height: 1, premultipliedPixels: [0, 0, 0, 0])
        #expect(try Image(pngData: one.pngData(.fast)) == one)
    }

    @Test func emptyImagesCannotBeEncoded() throws {
        let empty = try Image(width: 0, height: 3, premultipliedPixels: [])
        #expect(throws: GraphicsError.self) { try empty.pngData() }
    }

    private func expectPNGError(_ bytes: [UInt8], mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try Image(pngData: bytes)
            Issue.record("decoding succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description.count > 5, sourceLocation: sourceLocation)
            if !words.isEmpty {
                #expect(error.description.contains(words), "\(error.description)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func rejectsWhatIsNotAPNG() {
        expectPNGError([], mentioning: "not a PNG")
        expectPNGError(Array("GIF89a, not a png at all".utf8), mentioning: "not a PNG")
        expectPNGError([0x89, 0x50, 0x4E, 0x47], mentioning: "not a PNG")
        expectPNGError([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0xAB, count: 100), mentioning: "")
    }

    @Test func everyTruncationIsAnError() throws {
        let full = try FileIO.read(resource("rgba8.png"))
        // Every prefix that stops before the image data is complete must throw.
        // (IEND and the tail of the last chunk are not needed for the pixels.)
        for length in 0..<(full.count - 16) {
            #expect(throws: GraphicsError.self, "prefix of \(length) bytes") { try Image(pngData: Array(full[0..<length])) }
        }
    }

    @Test func corruptDataIsAnError() throws {
        let good = try FileIO.read(resource("rgb8.png"))
        var bytes = good
        let idat = bytes.indices.first { i in bytes[i..<min(bytes.count, i + 4)].elementsEqual(Array("IDAT".utf8)) }!
        bytes[idat + 6] ^= 0xFF  // inside the compressed data
        expectPNGError(bytes, mentioning: "IDAT")
        var badCRC = good
        badCRC[29] ^= 0x01  // the IHDR chunk's CRC
        expectPNGError(badCRC, mentioning: "CRC")
    }

    private func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    /// A chunk with its length and a correct CRC.
    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return be(UInt32(data.count)) + body + be(~crc)
    }

    /// A PNG signature and IHDR chunk declaring an 8-bit RGBA image of `width` × `height`.
    private func header(width: UInt32, height: UInt32) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(width) + be(height) + [8, 6, 0, 0, 0])
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeAllocating() {
        expectPNGError(header(width: 100_000, height: 100_000), mentioning: "too large")
        expectPNGError(header(width: 60_000, height: 60_000), mentioning: "too large")
        expectPNGError(header(width: 0xFFFF_FFFF, height: 1), mentioning: "too large")
        // Within the limits, but no file this short could hold 16000 × 16000 pixels.
        let tiny = header(width: 16_000, height: 16_000) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        expectPNGError(tiny, mentioning: "too short")
        expectPNGError(header(width: 0, height: 5), mentioning: "IHDR")
    }

    @Test func missingFilesAreIOErrors() {
        #expect(throws: GraphicsError.io(path: "/nonexistent/strata.png", reason: "No such file or directory")) {
            try Image(contentsOfPNGFile: "/nonexistent/strata.png")
        }
        let image = try! Image(width: 1, height: 1, premultipliedPixels: [0, 0, 0, 255])
        #expect(throws: GraphicsError.self) { try image.writePNG(to: "/nonexistent/dir/out.png") }
    }
}
