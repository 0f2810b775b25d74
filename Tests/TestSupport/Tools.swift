import Foundation

/// Runs the program at `path` with `arguments` and waits: what it wrote
/// (standard output and error together) and its exit status. For the
/// tools tests check documents with (`qpdf`, `pdftoppm`, `pdftotext`,
/// `pdfinfo`, `rsvg-convert`).
public func runTool(_ path: String, _ arguments: [String]) throws -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
}

/// `pdfinfo`'s fields for the PDF at `path` (its first page's, or page
/// `page`'s): "Title", "Pages", "Page size" and the rest, values trimmed.
public func pdfInfo(_ path: String, page: Int? = nil) throws -> [String: String] {
    let arguments = page.map { ["-f", "\($0)", "-l", "\($0)", path] } ?? [path]
    var fields: [String: String] = [:]
    for line in try runTool("/usr/bin/pdfinfo", arguments).output.split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        var key = String(line[..<colon])
        // Per-page fields are "Page    2 size".
        if key.hasPrefix("Page "), key.hasSuffix(" size") { key = "Page size" }
        fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return fields
}
