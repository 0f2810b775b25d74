import Foundation
import StrataGraphics
import Testing

@testable import StrataCharts

/// A file in a fresh temporary directory, removed with it.
final class TemporaryFile {
    let directory: String
    let path: String

    init(name: String = "data.csv", bytes: [UInt8]) throws {
        directory = NSTemporaryDirectory() + "strata-csv-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    convenience init(_ text: String, name: String = "data.csv") throws {
        try self.init(name: name, bytes: Array(text.utf8))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite struct CSVNumbersTests {
    func parse(_ s: String) -> Double? {
        let b = Array(s.utf8)
        return b.withUnsafeBufferPointer { CSVNumbers.parseDouble($0, 0, $0.count) }
    }

    func date(_ s: String) -> Double? {
        let b = Array(s.utf8)
        return b.withUnsafeBufferPointer { CSVNumbers.parseISODate($0, 0, $0.count) }
    }

    @Test func numbersParseExactlyAsSwiftDoes() {
        for text in [
            "0", "-0", "12", "+7", "0.1", "69.889830", "-28.704608821", "1e3", "1E-3", "6.02214076e23", "123456789012345678",
            "1234567890123456789012", "0.30000000000000004", "4.9e-324", "1.7976931348623157e308", "2.2250738585072014e-308",
            ".5", "5.", "9007199254740993", "1e22", "1e23", "0.000001",
        ] {
            #expect(parse(text) == Double(text), "\(text)")
        }
        // Random decimals of every length and scale agree bit for bit.
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let digits = 1 + Int(rng.uniform() * 20)
            var s = (0..<digits).map { _ in String(Int(rng.uniform() * 10)) }.joined()
            let point = Int(rng.uniform() * Double(digits + 1))
            s.insert(".", at: s.index(s.startIndex, offsetBy: point))
            if rng.uniform() < 0.3 { s += "e\(Int(rng.uniform() * 60) - 30)" }
            if rng.uniform() < 0.5 { s = "-" + s }
            if s.hasSuffix(".") || s.hasPrefix(".") || s.hasPrefix("-.") || s.contains(".e") { continue }
            #expect(parse(s) == Double(s), "\(s)")
        }
    }

    @Test func notNumbersAreRefused() {
        for text in ["", "-", "+", ".", "abc", "1.2.3", "1e", "1e+", "12a", "0x10", "1,5", " 1", "--1"] {
            #expect(parse(text) == nil, "\(text)")
        }
        #expect(parse("inf") == .infinity)
        #expect(parse("-Infinity") == -.infinity)
        #expect(parse("1e999") == .infinity)
    }

    @Test func isoDatesAgreeWithFoundation() throws {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        for text in [
            "2026-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2000-02-29T12:00:00+05:30", "1999-12-31T23:59:59-08:00",
            "1970-01-01T00:00:00Z", "2100-03-01T00:00:00Z", "1600-02-29T06:07:08Z",
        ] {
            let expected = try #require(f.date(from: text)).timeIntervalSinceReferenceDate
            #expect(date(text) == expected, "\(text)")
        }
        // Without a zone: UTC; a date alone is midnight.
        #expect(date("2026-01-01T00:00:00") == date("2026-01-01T00:00:00Z"))
        #expect(date("2026-01-01") == date("2026-01-01T00:00:00Z"))
        #expect(date("2026-01-01 08:30") == date("2026-01-01T08:30:00Z"))
        #expect(date("2001-01-01T00:00:00") == 0)
        #expect(date("2001-01-01T00:00:01.25") == 1.25)
        #expect(date("2001-01-01T01:00:00+0100") == 0)
        #expect(date("2001-01-01T01:00:00+01") == 0)
    }

    @Test func invalidDatesAreRefused() {
        for text in [
            "2026-02-29", "2100-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-01-01T25:00:00", "2026-01-01T10:60:00",
            "2026-01-01T10:00:61", "2026-1-1", "26-01-01", "2026-01-01T", "2026-01-01T10", "2026-01-01T10:00:00.", "2026-01-01X",
            "2026-01-01T10:00:00+25:00", "", "today",
        ] {
            #expect(date(text) == nil, "\(text)")
        }
        #expect(date("2024-02-29") != nil)
        #expect(date("2026-01-01T24:00:00") == date("2026-01-02"))
    }
}

@Suite struct CSVColumnReaderTests {
    func read(_ text: String, _ columns: [(Int, CSVColumnKind)], delimiter: Character = ",") throws -> [[Double]] {
        let file = try TemporaryFile(text)
        var reader = try CSVColumnReader(path: file.path, delimiter: delimiter)
        return try reader.readColumns(columns.map { (index: $0.0, kind: $0.1) })
    }

    func error(_ text: String, _ columns: [(Int, CSVColumnKind)]) -> CSVError? {
        do {
            _ = try read(text, columns)
            return nil
        } catch {
            return error as? CSVError
        }
    }

    @Test func readsColumnsWithQuotesCRLFAndBlankLines() throws {
        let text = "\u{FEFF}name,\"value, in mV\",count\r\n\"a, b\",1.5,3\r\n\r\n\"say \"\"hi\"\"\",-2,\"4\"\r\nc,\"1e3\",5\n"
        let file = try TemporaryFile(text)
        var reader = try CSVColumnReader(path: file.path)
        #expect(reader.header == ["name", "value, in mV", "count"])
        #expect(try reader.columnIndex("value, in mV") == 1)
        #expect(try reader.columnIndex("COUNT") == 2)
        #expect(try reader.columnIndex("1") == 0)
        let v = try reader.readColumns([(index: 1, kind: .number), (index: 2, kind: .number)])
        #expect(v[0] == [1.5, -2, 1000])
        #expect(v[1] == [3, 4, 5])
    }

    @Test func quotedFieldsMaySpanLines() throws {
        let v = try read("note,v\n\"two\nlines\",1\nplain,2\n", [(1, .number)])
        #expect(v[0] == [1, 2])
        // The line numbers after it count the newline inside the quotes.
        let e = error("note,v\n\"two\nlines\",1\nplain,x\n", [(1, .number)])
        #expect(e?.line == 4)
    }

    @Test func missingValuesAreGaps() throws {
        let v = try read("x,y\n1,\n2,NaN\n3,NA\n4, 5 \n5,null\n", [(0, .number), (1, .number)])
        #expect(v[0] == [1, 2, 3, 4, 5])
        #expect(v[1].map { $0.isNaN } == [true, true, true, false, true])
        #expect(v[1][3] == 5)
    }

    @Test func aLastLineWithoutANewlineIsRead() throws {
        #expect(try read("x\n1\n2", [(0, .number)]) == [[1, 2]])
        #expect(try read("x;y\n1;2\n", [(1, .number)], delimiter: ";") == [[2]])
        #expect(try read("x\ty\n1\t2\n", [(1, .number)], delimiter: "\t") == [[2]])
    }

    @Test func linesAcrossBlocksAndLongerThanABlock() throws {
        // 4 MB blocks: 300,000 rows cross several, and one 9 MB line grows the buffer.
        var text = "i,v,pad\n"
        for i in 0..<300_000 { text += "\(i),\(Double(i) / 8),p\n" }
        text += "300000,1,\"" + String(repeating: "x", count: 9_000_000) + "\"\n"
        let v = try read(text, [(0, .number), (1, .number)])
        #expect(v[0].count == 300_001)
        #expect(v[0] == (0...300_000).map(Double.init))
        #expect(v[1][299_999] == 299_999.0 / 8)
        #expect(v[1][300_000] == 1)
    }

    @Test func datesInIsoAndInAFormat() throws {
        let v = try read("t,u\n2001-01-01T00:01:00Z,02/01/2001 00:00\n", [(0, .isoDate), (1, .date(format: "dd/MM/yyyy HH:mm"))])
        #expect(v[0] == [60])
        #expect(v[1] == [86_400])
    }

    @Test func automaticColumnsResolveFromTheirFirstCell() throws {
        let file = try TemporaryFile("a,b,c\n2026-01-01,1,\n2026-01-02,2,\n")
        var reader = try CSVColumnReader(path: file.path)
        _ = try reader.readColumns([(index: 0, kind: .automatic), (index: 1, kind: .automatic), (index: 2, kind: .automatic)])
        #expect(reader.resolvedKinds == [.isoDate, .number, .automatic])
    }

    @Test func badCellsNameTheirLineAndColumn() {
        let e = error("time,bpm\n2026-01-01T00:00:00,70\n2026-01-01T00:00:01,seventy\n", [(0, .isoDate), (1, .number)])
        #expect(e?.line == 3)
        #expect(e?.column == 2)
        #expect(e?.columnName == "bpm")
        #expect(e?.description.contains("'seventy' is not a number") == true)
        let d = error("time,bpm\n2026-02-30T00:00:00,70\n", [(0, .isoDate), (1, .number)])
        #expect(d?.line == 2)
        #expect(d?.column == 1)
        #expect(d?.description.contains("is not an ISO 8601 date") == true)
        let auto = error("time,bpm\n2026-02-30T00:00:00,70\n", [(0, .automatic)])
        #expect(auto?.description.contains("is not a valid ISO 8601 date") == true)
        let huge = error("v\n1e999\n", [(0, .number)])
        #expect(huge?.description.contains("too large") == true)
        let format = error("t\n2001/01/01\n", [(0, .date(format: "dd.MM.yyyy"))])
        #expect(format?.description.contains("is not a date in the format 'dd.MM.yyyy'") == true)
    }

    @Test func shortRowsAndUnclosedQuotesAreErrors() {
        let e = error("a,b,c\n1,2,3\n4,5\n", [(0, .number), (2, .number)])
        #expect(e?.line == 3)
        #expect(e?.column == 3)
        #expect(e?.description.contains("the row has 2 fields, so no column 3") == true)
        let q = error("a,b\n1,\"2\n", [(1, .number)])
        #expect(q?.description.contains("not closed") == true)
        let after = error("a,b\n1,\"2\"x\n", [(1, .number)])
        #expect(after?.description.contains("after a closing quote") == true)
    }

    @Test func filesThatCannotBeReadAreErrors() throws {
        #expect(throws: CSVError(file: "/no/such/file.csv", message: "no such file")) {
            _ = try CSVColumnReader(path: "/no/such/file.csv")
        }
        let empty = try TemporaryFile("")
        #expect(throws: CSVError(file: empty.path, message: "the file is empty")) { _ = try CSVColumnReader(path: empty.path) }
        #expect(throws: CSVError.self) { _ = try CSVColumnReader(path: empty.directory) }
        let header = try TemporaryFile("a,b\n")
        var reader = try CSVColumnReader(path: header.path)
        #expect(try reader.peekRow() == nil)
        #expect(throws: CSVError.self) { _ = try reader.columnIndex("c") }
        #expect(throws: CSVError.self) { _ = try reader.columnIndex("3") }
        #expect(throws: CSVError.self) { _ = try CSVColumnReader(path: header.path, delimiter: "\"") }
    }
}

@Suite @MainActor struct CSVChartTests {
    func request(_ file: TemporaryFile) -> CSVChart.Request {
        var r = CSVChart.Request(file: file.path)
        r.options.width = 400
        r.options.height = 240
        return r
    }

    /// The error `write` throws for `text`, after checking it wrote nothing.
    func failure(_ text: String, _ change: (inout CSVChart.Request) -> Void = { _ in }) throws -> (CSVError, Int32)? {
        let file = try TemporaryFile(text)
        var r = request(file)
        change(&r)
        let out = file.directory + "/chart.png"
        do {
            try CSVChart.write(r, to: out)
            return nil
        } catch let error as CSVError {
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try FileManager.default.contentsOfDirectory(atPath: file.directory) == ["data.csv"])
            return (error, CSVChart.exitStatus(for: error, request: r))
        }
    }

    @Test func drawsDatesAgainstNumbersAndWritesAPNG() throws {
        let file = try TemporaryFile("time,bpm,spo2\n2026-01-01T00:00:00,72,98\n2026-01-01T00:05:00,75,97\n2026-01-01T00:10:00,,96\n")
        let out = file.directory + "/chart.png"
        try CSVChart.write(request(file), to: out)
        let image = try Image(contentsOfPNGFile: out)
        #expect(image.width == 400 && image.height == 240)
        // Two series in two colours: the health red and the next palette colour.
        var colours = Set<UInt32>()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                if p.r > 200, p.g < 90 { colours.insert(1) }
                if p.b > 180, p.r < 90 { colours.insert(2) }
            }
        }
        #expect(colours == [1, 2])
    }

    @Test func everyBadInputIsAnErrorWithItsPlaceAndNoPNG() throws {
        let missing = CSVChart.Request(file: "/no/such.csv")
        #expect(throws: CSVError.self) { try CSVChart.write(missing, to: NSTemporaryDirectory() + "never.png") }
        do { try CSVChart.write(missing, to: "/tmp/never.png") } catch let e as CSVError {
            #expect(CSVChart.exitStatus(for: e, request: missing) == 66)
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.png"))

        let empty = try #require(try failure(""))
        #expect(empty.0.message == "the file is empty" && empty.1 == 65)
        let oneRow = try #require(try failure("time,bpm\n"))
        #expect(oneRow.0.line == 2 && oneRow.0.message.contains("no rows"))
        let noColumn = try #require(try failure("time,bpm\n1,2\n") { $0.y = ["pulse"] })
        #expect(noColumn.0.line == 1 && noColumn.0.message.contains("no column 'pulse'"))
        let noX = try #require(try failure("time,bpm\n1,2\n") { $0.x = "when" })
        #expect(noX.0.message.contains("no column 'when'"))
        let notNumber = try #require(try failure("time,bpm\n2026-01-01T00:00:00,70\n2026-01-01T00:00:01,high\n"))
        #expect(notNumber.0.line == 3 && notNumber.0.column == 2 && notNumber.0.columnName == "bpm")
        let badDate = try #require(try failure("time,bpm\n2026-01-01T00:00:00,70\n2026-01-32T00:00:00,71\n"))
        #expect(badDate.0.line == 3 && badDate.0.column == 1 && badDate.0.message.contains("ISO 8601"))
        let badFormat = try #require(try failure("day,v\n31/01/2026,1\n2026-02-01,2\n") { $0.dateFormat = "dd/MM/yyyy" })
        #expect(badFormat.0.line == 3 && badFormat.0.message.contains("format 'dd/MM/yyyy'"))
        let short = try #require(try failure("a,b\n1,2\n3\n"))
        #expect(short.0.line == 3 && short.0.column == 2)
        let noNumbers = try #require(try failure("name,town\nAda,London\n"))
        #expect(noNumbers.0.message.contains("no column of numbers"))
        let allGaps = try #require(
            try failure("x,y\n1,\n2,NaN\n") {
                $0.x = "x"; $0.y = ["y"]
            })
        #expect(allGaps.0.message.contains("every value"))
        let noXValue = try #require(
            try failure("x,y\n1,5\n,6\n") {
                $0.x = "x"; $0.y = ["y"]
            })
        #expect(noXValue.0.message.contains("every row needs an x"))
    }

    @Test func anUnwritableTargetIsItsOwnError() throws {
        let file = try TemporaryFile("x,y\n1,2\n2,3\n")
        let r = request(file)
        do {
            try CSVChart.write(r, to: file.directory + "/missing/dir/chart.png")
            Issue.record("wrote into a missing directory")
        } catch let e as CSVError {
            #expect(CSVChart.exitStatus(for: e, request: r) == 73)
        }
    }

    @Test func withoutColumnsTheFirstNumbersAreDrawnOverTheRowNumber() throws {
        let file = try TemporaryFile("label,a,b\nx,1,10\ny,2,20\nz,3,15\n")
        let image = try CSVChart.image(request(file))
        #expect(image.width == 400)
        // A given x of numbers, rows out of order: sorted, not an error.
        var r = request(file)
        r.x = "b"
        r.y = ["a"]
        _ = try CSVChart.image(r)
    }
}
