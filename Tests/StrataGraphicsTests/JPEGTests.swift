import StrataTestSupport
import Testing

@testable import StrataGraphics

@Suite struct JPEGTests {
    @Test(arguments: ["blocks.jpg", "blocks-progressive.jpg", "blocks-cmyk.jpg"])
    func decodesColour(file: String) throws {
        let image = try Image(contentsOfJPEGFile: resource(file))
        #expect(image.width == 16 && image.height == 8)
        #expect(near(image[3, 3], Pixel(r: UInt8(200), g: UInt8(40), b: UInt8(30), a: 255), 6), "\(file): \(image[3, 3])")
        #expect(near(image[12, 3], Pixel(r: UInt8(20), g: UInt8(90), b: UInt8(220), a: 255), 6), "\(file): \(image[12, 3])")
    }

    @Test func decodesGrey() throws {
        let image = try Image(contentsOfJPEGFile: resource("blocks-gray.jpg"))
        #expect(
            near(image[3, 3], Pixel(r: UInt8(87), g: UInt8(87), b: UInt8(87), a: 255), 6)
                && near(image[12, 3], Pixel(r: UInt8(84), g: UInt8(84), b: UInt8(84), a: 255), 6))
    }

    @Test func roundTrip() throws {
        let canvas = makeCanvas(32, 16)
        canvas.fillColor = Color(red8: 30, green8: 160, blue8: 90)
        canvas.fill(canvas.bounds)
        let image = canvas.makeImage()
        let decoded = try Image(jpegData: image.jpegData(quality: 0.95))
        #expect(decoded.width == 32 && decoded.height == 16 && near(decoded[10, 10], Pixel(r: UInt8(30), g: UInt8(160), b: UInt8(90), a: 255), 3))
        let small = try image.jpegData(quality: 0.1), large = try image.jpegData(quality: 1)
        #expect(small.count <= large.count)
        // Formats are told apart by their signatures.
        #expect(try Image(data: image.jpegData()).width == 32)
        #expect(try Image(data: image.pngData()) == image)
        #expect(throws: GraphicsError.self) { try Image(data: Array("GIF89a".utf8)) }
        #expect(throws: GraphicsError.self) { try Image(width: 0, height: 1, premultipliedPixels: []).jpegData() }
    }

    @Test func rejectsWhatIsNotAJPEG() {
        for bytes in [[], [0xFF, 0xD8], Array("not a jpeg".utf8), [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 40)] as [[UInt8]] {
            do {
                _ = try Image(jpegData: bytes)
                Issue.record("decoded \(bytes.count) bytes")
            } catch {
                #expect(error.description.hasPrefix("JPEG: "))
            }
        }
    }

    @Test func everyTruncationIsAnError() throws {
        let full = try FileIO.read(resource("blocks.jpg"))
        // Up to the end of the entropy-coded data; the final EOI marker is optional to libjpeg.
        for length in 0..<(full.count - 2) {
            #expect(throws: GraphicsError.self, "prefix of \(length) bytes") { try Image(jpegData: Array(full[0..<length])) }
        }
    }

    @Test func absurdSizesAreRefusedBeforeAllocating() throws {
        var bytes = try FileIO.read(resource("blocks.jpg"))
        // The SOF0 marker (FF C0) holds the height and width after its length and precision.
        let sof = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes[sof + 5] = 0x3E; bytes[sof + 6] = 0x80  // height 16000
        bytes[sof + 7] = 0x3E; bytes[sof + 8] = 0x80  // width 16000
        do {
            _ = try Image(jpegData: bytes)
            Issue.record("decoded a 16000 × 16000 image from \(bytes.count) bytes")
        } catch {
            #expect(error.description.contains("too short"), "\(error)")
        }
        bytes[sof + 5] = 0x80; bytes[sof + 6] = 0x00  // 32768 × 32768: over the pixel limit
        bytes[sof + 7] = 0x80; bytes[sof + 8] = 0x00
        do {
            _ = try Image(jpegData: bytes)
            Issue.record("decoded a 32768 × 32768 image")
        } catch {
            #expect(error.description.contains("too large"), "\(error)")
        }
    }
}
