import Foundation
import StrataTestSupport
import Testing

@testable import StrataGraphics

/// Hostile files, written byte by byte here: each must be refused with a clear
/// error before anything large is allocated, or decoded within its limits.
@Suite struct HostileFileTests {
    func pngError(_ bytes: [UInt8], maximumPixelCount: Int = Image.defaultMaximumPixelCount) -> String? {
        do {
            _ = try Image(pngData: bytes, maximumPixelCount: maximumPixelCount)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func jpegError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try Image(jpegData: bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aChunkDeclaringMoreThanTheFileHoldsIsRefusedUnread() {
        // A 46-byte file whose text chunk declares 2 GB: refused from the chunk
        // headers before libpng reads the chunk (an outside check saw libpng
        // allocate the 2 GB first).
        let file =
            HostileFiles.pngSignature + HostileFiles.ihdr(width: 1, height: 1)
            + HostileFiles.chunk("tEXt", Array("Title\0x".utf8), declaredLength: 0x7FFF_FFF0)
        #expect(file.count < 60)
        let message = pngError(file)
        #expect(message?.contains("tEXt chunk declares 2147483632 bytes") == true, "\(message ?? "decoded")")
        // A length past 2³¹ − 1 is damage, whatever follows.
        let huge =
            HostileFiles.pngSignature + HostileFiles.ihdr(width: 1, height: 1)
            + HostileFiles.chunk("zTXt", [1, 2, 3], declaredLength: 0xFFFF_FFF0)
        #expect(pngError(huge)?.contains("over 2^31 - 1") == true)
    }

    @Test func decodingHasAPixelLimitWithASafeDefault() {
        // 9000 × 8000 blank pixels in 46 KB: 288 MB of RGBA, refused unless asked for.
        let bomb = HostileFiles.blankPNG(width: 9000, height: 8000)
        #expect(bomb.count < 60_000)
        let message = pngError(bomb)
        #expect(message?.contains("72000000 pixels") == true && message?.contains("maximumPixelCount") == true, "\(message ?? "decoded")")
        // Within the limit (or with it raised), the same kind of file decodes,
        // into the image's own storage.
        let small = HostileFiles.blankPNG(width: 2048, height: 1024)
        let image = try! Image(pngData: small)
        #expect(image.width == 2048 && image.height == 1024)
        #expect(image[0, 0] == Pixel(r: 0, g: 0, b: 0, a: 255) && image[2047, 1023] == Pixel(r: 0, g: 0, b: 0, a: 255))
        #expect(pngError(small, maximumPixelCount: 2048 * 1024 - 1)?.contains("over this decode's limit") == true)
        // JPEG too.
        let jpeg = try! Image(width: 64, height: 48, premultipliedPixels: [UInt8](repeating: 200, count: 64 * 48 * 4)).jpegData()
        #expect((try? Image(jpegData: jpeg, maximumPixelCount: 64 * 48)) != nil)
        #expect((try? Image(jpegData: jpeg, maximumPixelCount: 64 * 48 - 1)) == nil)
        #expect((try? Image(data: jpeg, maximumPixelCount: 100)) == nil)
    }

    @Test func aProgressiveJPEGWithThousandsOfScansIsRefused() throws {
        // The last scan repeated: each repeat is another pass over the image; a
        // 726 KB file of 20 000 of them ran for minutes.
        let progressive = try FileIO.read(resource("blocks-progressive.jpg"))
        let hostile = HostileFiles.jpeg(progressive, repeatingLastScan: 2000)
        let message = jpegError(hostile)
        #expect(message?.contains("more than 256 scans") == true, "\(message ?? "decoded")")
        // A few repeats are under the limit (whatever libjpeg then makes of them).
        #expect(jpegError(HostileFiles.jpeg(progressive, repeatingLastScan: 5))?.contains("scans") != true)
        #expect(jpegError(progressive) == nil)
    }

    @Test func aJPEGDeclaringMoreThanItsDataIsRefused() throws {
        let jpeg = try Image(width: 64, height: 64, premultipliedPixels: [UInt8](repeating: 128, count: 64 * 64 * 4)).jpegData()
        let enlarged = HostileFiles.jpeg(jpeg, declaringWidth: 16000, height: 16000)
        #expect(jpegError(enlarged)?.contains("too short") == true)
        let taller = HostileFiles.jpeg(jpeg, declaringWidth: 64, height: 4000)
        #expect(jpegError(taller) != nil)
    }
}
