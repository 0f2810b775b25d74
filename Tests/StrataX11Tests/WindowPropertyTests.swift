import CX11
import StrataGraphics
import StrataX11Testing
import Testing

@testable import StrataX11

/// What the window manager reads: the title and the size hints.
extension X11Tests.WindowTests {
    @Test(.enabled(if: testDisplay.isAvailable, WindowTestDisplay.requirement)) func theTitleAndMinimumSizeReachTheWindowManager() throws {
        let name = try #require(testDisplay.name)
        let window = try StrataX11.Window(title: "Gewicht · 体重", size: Size(width: 120, height: 90), scale: 2, display: name)
        defer { window.close() }
        window.minimumSize = Size(width: 60, height: 40)
        window.sync()
        // _NET_WM_NAME holds the UTF-8 title.
        let utf8 = XInternAtom(window.display, "UTF8_STRING", 0)
        let netName = XInternAtom(window.display, "_NET_WM_NAME", 0)
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XGetWindowProperty(
            window.display, window.xWindow, netName, 0, 1024, 0, utf8, &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        let title = data.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(count)), as: UTF8.self) }
        #expect(title == "Gewicht · 体重")
        // The minimum size, in device pixels.
        let hints = try #require(XAllocSizeHints())
        defer { XFree(hints) }
        var supplied = 0
        XGetWMNormalHints(window.display, window.xWindow, hints, &supplied)
        #expect(hints.pointee.flags & PMinSize != 0)
        #expect(hints.pointee.min_width == 120 && hints.pointee.min_height == 80)
        // A title change is sent too.
        window.title = "second"
        window.sync()
        var name2: UnsafeMutablePointer<CChar>?
        XFetchName(window.display, window.xWindow, &name2)
        #expect(name2.map { String(cString: $0) } == "second")
        if let name2 { XFree(name2) }
    }
}
