import Foundation
import StrataGraphics
import StrataTestSupport
import StrataText
import Testing

@testable import StrataCharts

/// Files laid out as people publish them: comments before the
/// header, columns that start late, dates in a format of their own, numbers
/// separated by spaces with no header, more series than a palette.
@Suite struct PublishedCSVReaderTests {
    func reader(_ text: String, _ format: CSVFormat = CSVFormat()) throws -> (TemporaryFile, CSVColumnReader) {
        let file = try TemporaryFile(text)
        return (file, try CSVColumnReader(path: file.path, format: format))
    }

    @Test func commentLinesBeforeTheHeaderArePassed() throws {
        // A quote in a comment is its text, not the start of a field.
        let text = "# Data source: \"Example\" exchange, daily\n  # second comment\n\n#\ntime,v\n1,2\n2,3\n"
        var (file, r) = try reader(text)
        #expect(r.header == ["time", "v"] && r.hasHeader)
        #expect(try r.readColumns([(index: 1, kind: .number)]) == [[2, 3]])
        // Another character, or none.
        var (_, semi) = try reader("; notes\nt,v\n1,5\n", CSVFormat(comment: ";"))
        #expect(semi.header == ["t", "v"])
        #expect(try semi.readColumns([(index: 1, kind: .number)]) == [[5]])
        let off = try CSVColumnReader(path: file.path, format: CSVFormat(delimiter: .character(","), comment: nil))
        #expect(off.header == ["# Data source: \"Example\" exchange", " daily"].map { $0.trimmingCharacters(in: .whitespaces) })
        _ = file
        // Only comments: a clear error, not "empty".
        let onlyComments = try TemporaryFile("# nothing here\n# at all\n")
        #expect(throws: CSVError.self) { _ = try CSVColumnReader(path: onlyComments.path) }
        do { _ = try CSVColumnReader(path: onlyComments.path) } catch { #expect(error.message.contains("only blank lines and comments")) }
        // A comment character that cannot be one.
        #expect(throws: CSVError.self) { _ = try CSVColumnReader(path: onlyComments.path, format: CSVFormat(comment: "\"")) }
        #expect(throws: CSVError.self) {
            _ = try CSVColumnReader(path: onlyComments.path, format: CSVFormat(delimiter: .character("#"), comment: "#"))
        }
    }

    @Test func commentsAmongTheRowsOnlyWhenAsked() throws {
        let text = "t,v\n1,2\n# paused \"here\n3,4\n"
        var (_, anywhere) = try reader(text, CSVFormat(commentsAnywhere: true))
        #expect(try anywhere.readColumns([(index: 0, kind: .number), (index: 1, kind: .number)]) == [[1, 3], [2, 4]])
        // Without: the comment is a row (of one field, too short).
        var (_, strict) = try reader("t,v\n1,2\n# paused\n3,4\n")
        do {
            _ = try strict.readColumns([(index: 0, kind: .number), (index: 1, kind: .number)])
            Issue.record("a comment among the rows was skipped without being asked")
        } catch {
            #expect(error.line == 3)
        }
    }

    @Test func whitespaceSeparatedNumbersWithoutAHeader() throws {
        // As numpy's savetxt writes them: leading spaces, runs of spaces, exponents.
        var (_, r) = try reader("  0.000   2.0000e+06  1\n  0.100   2.1000e+06\t 4\n\n  0.200   2.0500e+06  9\n")
        #expect(r.delimiter == .whitespace && !r.hasHeader)
        #expect(r.header == ["column 1", "column 2", "column 3"])
        #expect(try r.columnIndex("2") == 1 && r.columnIndex("column 3") == 2)
        let v = try r.readColumns([(index: 0, kind: .number), (index: 1, kind: .number), (index: 2, kind: .number)])
        #expect(v == [[0, 0.1, 0.2], [2e6, 2.1e6, 2.05e6], [1, 4, 9]])
        // With a header of names, and quoted names with spaces.
        var (_, named) = try reader("time  \"heart rate\"\n0  72\n1  75\n")
        #expect(named.delimiter == .whitespace && named.header == ["time", "heart rate"])
        #expect(try named.readColumns([(index: 1, kind: .number)]) == [[72, 75]])
        // Forced, on a file the detection would read otherwise.
        var (_, forced) = try reader("a b\n1 2\n", CSVFormat(delimiter: .whitespace))
        #expect(try forced.readColumns([(index: 1, kind: .number)]) == [[2]])
    }

    @Test func theDelimiterIsFoundFromTheFirstLines() throws {
        #expect(try reader("a,b\n1,2\n").1.delimiter == .character(","))
        // A tab-separated file keeps its empty cells in place.
        var (_, tsv) = try reader("a\tb\tc\n1\t\t3\n")
        #expect(tsv.delimiter == .character("\t"))
        #expect(try tsv.readColumns([(index: 1, kind: .number), (index: 2, kind: .number)]).map { $0.map(\.isNaN) } == [[true], [false]])
        #expect(try reader("a;b\n1,5;2\n").1.delimiter == .character(";"))
        // One column whose name has a space: not split at it.
        var (_, one) = try reader("heart rate\n72\n73\n")
        #expect(one.delimiter == .character(",") && one.header == ["heart rate"])
        #expect(try one.readColumns([(index: 0, kind: .number)]) == [[72, 73]])
        // A header without commas over rows with them.
        #expect(try reader("value\n1,2\n").1.delimiter == .character(","))
    }

    @Test func aFirstLineOfNumbersIsARowUnlessTheHeaderIsSaidToBeThere() throws {
        var (file, r) = try reader("1,2\n3,4\n")
        #expect(!r.hasHeader && r.header == ["column 1", "column 2"])
        #expect(try r.readColumns([(index: 0, kind: .number)]) == [[1, 3]])
        var present = try CSVColumnReader(path: file.path, format: CSVFormat(header: .present))
        #expect(present.header == ["1", "2"])
        #expect(try present.readColumns([(index: 0, kind: .number)]) == [[3]])
        // Dates and gaps count as values; names do not.
        #expect(try !reader("2003-07-01,,NA\n2003-07-02,1,2\n").1.hasHeader)
        #expect(try reader("2019,2020,total\n1,2,3\n").1.hasHeader)
        let names = try TemporaryFile("a,b\n1,2\n")
        var absent = try CSVColumnReader(path: names.path, format: CSVFormat(header: .absent))
        #expect(absent.header == ["column 1", "column 2"])
        #expect(throws: CSVError.self) { _ = try absent.readColumns([(index: 0, kind: .number)]) }
    }

    @Test func aColumnReadWithoutBeingNamedIsDroppedWhenItHoldsText() throws {
        var (_, r) = try reader("x,a,note\n1,2,\n2,3,NA\n3,4,late text\n4,5,\n")
        let v = try r.readColumns([(index: 1, kind: .numberIfAll), (index: 2, kind: .numberIfAll)])
        #expect(v[0] == [2, 3, 4, 5])
        #expect(v[1].allSatisfy(\.isNaN) && v[1].count == 4)
        #expect(r.droppedColumns == [2])
    }

    @Test func aLongLineOfDigitsIsQuicklyNotANumber() throws {
        // A megabyte of digits is no number, said at once.
        let digits = String(repeating: "7", count: 1 << 20)
        let bytes = Array(digits.utf8)
        #expect(bytes.withUnsafeBufferPointer { CSVNumbers.parseDouble($0, 0, $0.count) } == nil)
        let longest = Array(("1." + String(repeating: "0", count: CSVNumbers.maximumNumberLength - 2)).utf8)
        #expect(longest.withUnsafeBufferPointer { CSVNumbers.parseDouble($0, 0, $0.count) } != nil)
        var (_, r) = try reader("a,b\n1," + digits + "\n")
        #expect(r.header == ["a", "b"])
        #expect(try r.peekRows(limit: 2).map { $0.count } == [2])
        #expect(throws: CSVError.self) { _ = try r.readColumns([(index: 1, kind: .number)]) }
    }

    @Test func aLineOfMillionsOfFieldsIsAnErrorAtOnce() throws {
        let many = String(repeating: "1,", count: CSVColumnReader.maximumColumns) + "1\n"
        for text in [many, "a,b\n" + many, String(repeating: "1 ", count: CSVColumnReader.maximumColumns + 1) + "\n"] {
            do {
                let file = try TemporaryFile(text)
                var r = try CSVColumnReader(path: file.path)
                _ = try r.peekRows(limit: 2)
                _ = try r.readColumns([(index: 0, kind: .number)])
                Issue.record("read a line of more than a million fields")
            } catch {
                #expect((error as? CSVError)?.message.contains("more than \(CSVColumnReader.maximumColumns) fields") == true, "\(error)")
            }
        }
    }

    @Test func columnIndicesOutOfRangeAreErrorsNotTraps() throws {
        var (_, r) = try reader("a,b\n1,2\n")
        #expect(try r.readColumns([]).isEmpty)
        for index in [-1, Int.min, CSVColumnReader.maximumColumns, Int.max] {
            #expect(throws: CSVError.self) { _ = try r.readColumns([(index: index, kind: .number)]) }
        }
        // A column past the row's fields is a short row, with its place.
        do {
            _ = try r.readColumns([(index: 5, kind: .number)])
            Issue.record("read a column the rows do not have")
        } catch {
            #expect(error.line == 2 && error.column == 6)
        }
    }

    @Test func peekingAtRowsReadsNothing() throws {
        var (_, r) = try reader("# c\nt,v\n1,\n\n2,\"x\ny\"\n3,4\n")
        let rows = try r.peekRows(limit: 10)
        #expect(rows == [["1", ""], ["2", "x\ny"], ["3", "4"]])
        #expect(try r.peekRows(limit: 2).count == 2)
        #expect(try r.readColumns([(index: 0, kind: .number)]) == [[1, 2, 3]])
        #expect(try r.peekRows(limit: 5).isEmpty)
    }
}

@Suite @MainActor struct PublishedCSVChartTests {
    func request(_ file: TemporaryFile, _ change: (inout CSVChart.Request) -> Void = { _ in }) -> CSVChart.Request {
        var r = CSVChart.Request(file: file.path)
        r.options.width = 480
        r.options.height = 260
        change(&r)
        return r
    }

    /// Whether `file` charts as `automatic` says (nothing named, by
    /// default) to the same pixels as with the columns `named`.
    func drawsAsNamed(
        _ file: TemporaryFile, _ automatic: (inout CSVChart.Request) -> Void = { _ in }, named: (inout CSVChart.Request) -> Void
    ) throws -> Bool {
        try CSVChart.image(request(file, automatic)).pixels == CSVChart.image(request(file, named)).pixels
    }

    @Test func aChartOfACommentedFileIsTheChartOfItsColumnsNamed() throws {
        let file = try TemporaryFile(
            "# Data source: an exchange, daily closes\n# (rows in date order)\nDate,AAA,BBB\n2003-07-01,10,\n2003-07-02,11,\n"
                + "2003-07-03,12,50\n2003-07-04,11,52\n")
        #expect(
            try drawsAsNamed(file) {
                $0.x = "Date"
                $0.y = ["AAA", "BBB"]
            })
        // Without the late column, a different picture: BBB was drawn.
        #expect(
            try !drawsAsNamed(file) {
                $0.x = "Date"
                $0.y = ["AAA"]
            })
    }

    @Test func aLateColumnBeyondTheRowsLookedAtIsASeriesOrLeftOut() throws {
        // 10,050 rows: the sample sees nothing in "late" and "note".
        var text = "x,a,late,note\n"
        for i in 0..<10_050 { text += "\(i),\(i % 7),\(i >= 10_020 ? String(i % 5) : ""),\(i == 10_040 ? "text" : "")\n" }
        let file = try TemporaryFile(text)
        #expect(
            try drawsAsNamed(
                file, { $0.x = "x" },
                named: {
                    $0.x = "x"
                    $0.y = ["a", "late"]
                }))
    }

    @Test func aDateFormatSaysTheFirstColumnIsX() throws {
        let file = try TemporaryFile("day,temp\n01/02/2024,5.5\n02/02/2024,6\n05/02/2024,4\n")
        let format = "dd/MM/yyyy"
        let implied = try CSVChart.image(request(file) { $0.dateFormat = format })
        let impliedWithY = try CSVChart.image(
            request(file) {
                $0.dateFormat = format
                $0.y = ["temp"]
            })
        let explicit = try CSVChart.image(
            request(file) {
                $0.dateFormat = format
                $0.x = "day"
                $0.y = ["temp"]
            })
        #expect(implied.pixels == explicit.pixels && impliedWithY.pixels == explicit.pixels)
        // Row numbers would place the 5th at the same distance as the 2nd: not this picture.
        let rows = try CSVChart.image(request(file) { $0.y = ["temp"] })
        #expect(rows.pixels != explicit.pixels)
        // Dates in a later column: that column is x (as with ISO dates).
        let later = try TemporaryFile("name,day,v\nfoo,01/02/2024,1\nbar,02/02/2024,2\nbaz,05/02/2024,4\n")
        #expect(
            try drawsAsNamed(
                later, { $0.dateFormat = format },
                named: {
                    $0.dateFormat = format
                    $0.x = "day"
                    $0.y = ["v"]
                }))
        // No column of dates in the format: an error that says how to name x.
        let none = try TemporaryFile("name,day,v\nfoo,2024-02-01,1\nbar,2024-02-02,2\n")
        do {
            _ = try CSVChart.image(request(none) { $0.dateFormat = format })
            Issue.record("a file without dates in the format was drawn")
        } catch let e as CSVError {
            #expect(e.column == 1 && e.message.contains("'foo' is not a date in the format 'dd/MM/yyyy'") && e.message.contains("--x"))
        }
    }

    @Test func isoDatesInALaterColumnAreX() throws {
        // As weather records are published: station and name first, quoted.
        let file = try TemporaryFile(
            "\"STATION\",\"NAME\",\"DATE\",\"PRCP\",\"TMAX\"\n\"US1\",\"CENTRAL PARK, NY US\",\"2003-07-01\",\"0.00\",\"84\"\n"
                + "\"US1\",\"CENTRAL PARK, NY US\",\"2003-07-02\",\"\",\"86\"\n\"US1\",\"CENTRAL PARK, NY US\",\"2003-07-05\",\"0.12\",\"88\"\n")
        #expect(
            try drawsAsNamed(file) {
                $0.x = "DATE"
                $0.y = ["PRCP", "TMAX"]
            })
    }

    @Test func whitespaceFilesChartAsTheirColumnsNamed() throws {
        var text = ""
        for i in 0..<40 { text += String(format: "  %.2f   %.4e   %d\n", Double(i) * 0.5, 2e6 + Double(i * i) * 100, i) }
        let file = try TemporaryFile(text, name: "data.txt")
        #expect(
            try drawsAsNamed(file) {
                $0.y = ["1", "2", "3"]
                $0.format = CSVFormat(delimiter: .whitespace, header: .absent)
            })
    }

    @Test func subnormalValuesChartWithoutTrapping() throws {
        // A y range of subnormal numbers had a step of 0 and NaN bounds.
        let y = try TemporaryFile("y\n0\n2e-323\n-5e-324\n")
        #expect(try CSVChart.image(request(y)).width == 480)
        let tiny = Double.leastNonzeroMagnitude  // 5e-324
        let scale = NiceScale(covering: 0, 4 * tiny)
        #expect(scale.lower.isFinite && scale.upper.isFinite && scale.lower < scale.upper && scale.step > 0)
        #expect(NiceScale.niceNumber(tiny, rounding: true) == tiny)
        // A dense x range of a few subnormal steps had columns of width 0.
        var text = "x,v\n"
        for i in 0..<100 { text += "\(i % 2 == 0 ? "0" : "5e-324"),\(i % 7)\n" }
        let x = try TemporaryFile(text)
        #expect(
            try CSVChart.image(
                request(x) {
                    $0.x = "x"
                    $0.options.width = 64
                }
            ).width == 64)
        let series = LineChartSeries(x: (0..<100).map { $0 % 2 == 0 ? 0 : tiny }, y: (0..<100).map(Double.init))
        #expect(series.visibleIndices(in: 0...tiny, columns: 16).count == 100)
    }

    @Test func longNamesAreCutAndAColumnNamedTwiceIsDrawnOnce() throws {
        let long = String(repeating: "h", count: 100_000)
        let file = try TemporaryFile("\"\(long)\",b\n1,2\n3,4\n")
        let reader = try CSVColumnReader(path: file.path)
        #expect(reader.header[0].count == CSVColumnReader.maximumNameLength && reader.header[0].hasSuffix("…"))
        #expect(try CSVChart.image(request(file)).width == 480)
        let wide = try TemporaryFile(
            (0..<30).map { "c\($0)" }.joined(separator: ",") + "\n" + Array(repeating: "x", count: 30).joined(separator: ",") + "\n")
        let description = try CSVColumnReader(path: wide.path).headerDescription
        #expect(description.hasPrefix("'c0', 'c1'") && description.hasSuffix("'c19' and 10 more"))
        // --y a,a: one series, the same picture as --y a.
        let twice = try TemporaryFile("t,a,b\n1,5,7\n2,6,3\n")
        #expect(
            try drawsAsNamed(
                twice, { $0.y = ["a", "a", "2"] },
                named: { $0.y = ["a"] }))
    }

    @Test func tenSeriesInTenColoursThenDashes() throws {
        for theme in [LineChartTheme.health, .light, .dark] {
            let styles = theme.styles(count: 40)
            #expect(styles.count == 40)
            // The first ten: ten colours, clearly apart, all solid.
            let first = styles.prefix(10)
            for (i, a) in first.enumerated() {
                #expect(a.lineDashPattern.isEmpty)
                for b in first.dropFirst(i + 1) {
                    let d =
                        ((a.color.red - b.color.red) * (a.color.red - b.color.red) + (a.color.green - b.color.green)
                        * (a.color.green - b.color.green) + (a.color.blue - b.color.blue) * (a.color.blue - b.color.blue)).squareRoot()
                    #expect(d >= 0.2, "\(a.color) \(b.color)")
                }
            }
            // Then the same colours in other dashes: forty looks, all different.
            #expect(!styles[10].lineDashPattern.isEmpty && styles[10].color == styles[0].color)
            #expect(Set(styles.map { "\($0.color) \($0.lineDashPattern)" }).count == 40)
        }
        // The health look stays for one series.
        #expect(LineChartTheme.health.styles(count: 1) == [.health])
        #expect(LineChartTheme.health.styles(count: 0).isEmpty)
    }

    @Test func tenSeriesAreDrawnInTenColoursWithEveryNameInTheLegend() throws {
        var text = "t," + (0..<10).map { "series number \($0)" }.joined(separator: ",") + "\n"
        for i in 0..<20 { text += "\(i)," + (0..<10).map { String($0 * 10 + i % 3) }.joined(separator: ",") + "\n" }
        let file = try TemporaryFile(text)
        let image = try CSVChart.image(request(file) { $0.x = "t" })
        // Every palette colour (the health red for the first) is on the picture.
        let colors = LineChartTheme.health.styles(count: 10).map(\.color)
        var seen = Set<Int>()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                for (k, c) in colors.enumerated()
                where abs(Double(p.r) - c.red * 255) < 6 && abs(Double(p.g) - c.green * 255) < 6 && abs(Double(p.b) - c.blue * 255) < 6 {
                    seen.insert(k)
                }
            }
        }
        #expect(seen.count == 10, "\(seen.sorted())")
    }
}

@Suite struct ReadableLabelTests {
    @Test func largeAndSmallValuesReadAsPeopleWriteThem() {
        func f(_ v: Double, _ step: Double, _ magnitude: Double) -> String { NiceScale.format(v, step: step, magnitude: magnitude) }
        #expect(f(0, 1e6, 3e6) == "0")
        #expect(f(2e6, 1e6, 3e6) == "2M" && f(-2.5e6, 5e5, 3e6) == "-2.5M")
        #expect(f(12_500, 2_500, 20_000) == "12.5K" && f(250_000, 50_000, 300_000) == "250K")
        #expect(f(3e9, 1e9, 5e9) == "3B" && f(4.2e12, 1e11, 5e12) == "4.2T")
        // A narrow range far from zero: grouped digits, not 1.000002M.
        #expect(f(1_000_002, 1, 1_000_010) == "1,000,002")
        #expect(f(2_500, 500, 5_000) == "2,500" && f(-1_234.5, 0.5, 2_000) == "-1,234.5" && f(7.5, 2.5, 10) == "7.5")
        #expect(f(0.25, 0.05, 1) == "0.25" && f(1.00001, 0.00001, 1.0001) == "1.00001")
        #expect(f(4e-5, 1e-5, 5e-5) == "40µ" && f(2.5e-9, 5e-10, 5e-9) == "2.5n" && f(3e-12, 1e-12, 5e-12) == "3p")
        #expect(f(3e18, 1e18, 5e18) == "3×10¹⁸" && f(2.5e-15, 5e-16, 5e-15) == "2.5×10⁻¹⁵")
        #expect(f(9.99e20, 1e18, 1e21) == "9.99×10²⁰")
        #expect(f(.infinity, 1, 1) == "∞" && f(.nan, 1, 1) == "NaN")
        // Through a scale: no exponent form anywhere.
        let scale = NiceScale(covering: 0, 2.9e6, ticks: 7)
        #expect(scale.ticks.map { scale.label(for: $0) } == ["0", "1M", "2M", "3M"])
        for (lo, hi) in [(0.0, 2e6), (1e7, 3e7), (0, 4e-5), (-5e9, 5e9), (1e20, 5e20)] {
            let s = NiceScale(covering: lo, hi, ticks: 5)
            for t in s.ticks { #expect(!s.label(for: t).contains("e"), "\(s.label(for: t))") }
        }
    }

    @Test func dateLabelsSayTheYearOnTheFirstAndWhereItChanges() throws {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        c.locale = Locale(identifier: "en_US_POSIX")
        func d(_ y: Int, _ m: Int, _ day: Int, _ h: Int = 0) -> Date { c.date(from: DateComponents(year: y, month: m, day: day, hour: h))! }
        func labels(_ a: Date, _ b: Date, _ step: DateScale.Step) -> [String] {
            let s = DateScale(a, b, step: step, calendar: c)
            return s.labels(for: s.ticks)
        }
        #expect(labels(d(2003, 7, 1), d(2003, 9, 30), .init(1, .month)) == ["Jul 2003", "Aug", "Sep"])
        #expect(labels(d(2003, 11, 1), d(2004, 2, 1), .init(1, .month)) == ["Nov 2003", "Dec", "Jan 2004", "Feb"])
        #expect(labels(d(2003, 12, 29), d(2004, 1, 2), .init(1, .day)) == ["29 Dec 2003", "30 Dec", "31 Dec", "1 Jan 2004", "2 Jan"])
        #expect(
            labels(d(2003, 12, 31, 12), d(2004, 1, 1, 12), .init(6, .hour)) == [
                "31 Dec 2003 12:00", "18:00", "1 Jan 2004 00:00", "06:00", "12:00",
            ])
        #expect(labels(d(2003, 7, 1, 9), d(2003, 7, 2, 3), .init(6, .hour)) == ["1 Jul 2003 12:00", "18:00", "2 Jul 00:00"])
        #expect(labels(d(2001, 1, 1), d(2004, 1, 1), .init(1, .year)) == ["2001", "2002", "2003", "2004"])
        // Through the axis: the year shows on a chart of July to September.
        let axis = AxisLabels.dates(d(2003, 7, 1), d(2003, 9, 30), length: 600, font: Font(size: 11), calendar: c)
        #expect(axis.first?.text == "Jul 2003")
        #expect(axis.contains { $0.text.contains("2003") })
    }
}

/// Random files built from the pieces published files are made of (comments,
/// quotes, blank lines, runs of spaces, tabs, semicolons, CRLF, a byte-order
/// mark, dates, gaps, text), read in every format and charted: each either
/// reads or throws a `CSVError`; nothing traps or hangs.
@Suite @MainActor struct CSVFuzzTests {
    static let pieces = [
        "#", "# c \"q", "\"", "\"\"", ",", ";", "\t", " ", "   ", "\n", "\r\n", "\n\n", "1", "-2.5", "1e3", "NA", "#N/A", "null",
        "2003-07-01", "2003-07-01T08:30:00Z", "01/02/2024", "abc", "x y", "\u{FEFF}", "é", "inf", "nan", "1,5",
    ]

    @Test func randomPublishedFilesReadOrSayWhy() throws {
        var rng = FuzzRandom(seed: 36)
        let formats = [
            CSVFormat(), CSVFormat(delimiter: .whitespace), CSVFormat(delimiter: .character(";"), header: .absent),
            CSVFormat(header: .present, comment: nil), CSVFormat(commentsAnywhere: true), CSVFormat(delimiter: .character("\t")),
        ]
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(1 + rng.int(60)) { text += rng.pick(Self.pieces) }
            let file = try TemporaryFile(text)
            for format in formats {
                do {
                    var reader = try CSVColumnReader(path: file.path, format: format)
                    _ = try reader.peekRows(limit: 1 + rng.int(5))
                    let n = reader.header.count
                    let kinds: [CSVColumnKind] = [.number, .automatic, .numberIfAll, .isoDate, .date(format: "dd/MM/yyyy")]
                    let columns = (0..<Swift.min(n, 4)).map { (index: $0, kind: rng.pick(kinds)) }
                    let values = try reader.readColumns(columns)
                    #expect(values.count == columns.count, "round \(round)")
                    #expect(Set(values.map { $0.count }).count <= 1, "round \(round)")
                } catch {
                    #expect(!error.description.isEmpty)
                }
                var request = CSVChart.Request(file: file.path)
                request.format = format
                request.options.width = 64
                request.options.height = 48
                if rng.int(3) == 0 { request.dateFormat = "dd/MM/yyyy" }
                do { _ = try CSVChart.image(request) } catch is CSVError {}
            }
        }
    }
}
