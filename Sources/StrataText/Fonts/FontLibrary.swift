internal import CFontconfig
internal import CFreeType
import StrataGraphics
import StrataQueues

/// FreeType and fontconfig behind one lock: finding fonts, opening faces, and
/// reading glyphs out of them. Everything read is cached as Swift values, so after
/// the first use of a glyph no drawing or layout comes here again.
///
/// FreeType's library object and its faces may not be used from two threads at
/// once; fontconfig's configuration is shared state too. One lock around both is
/// simple and costs nothing after the caches fill.
public final class FontLibrary: Sendable {
    /// The library every `Font` uses.
    public static let shared = FontLibrary()

    struct State {
        var freetype: FT_Library?
        var configReady = false
        /// Open faces by file and index.
        var faces: [FaceKey: (face: FT_Face, object: FontFace)] = [:]
        var glyphIndices: [FaceKey: [UInt32: UInt32]] = [:]
        var glyphs: [GlyphKey: GlyphData] = [:]
        /// Bytes `glyphs` holds, about (`outlineBytes(of:)`).
        var glyphBytes = 0
        var kerning: [KerningKey: Double] = [:]
        /// fontconfig's answer to a query: faces in order of preference.
        var matches: [MatchKey: [FontFace]] = [:]
        /// The chains with cascade lists put in front of the fallbacks.
        var cascades: [CascadeKey: [FontFace]] = [:]
        var failures: [String: String] = [:]
    }

    struct FaceKey: Hashable { var path: String; var index: Int }
    struct GlyphKey: Hashable { var face: FaceKey; var glyph: UInt32 }
    struct KerningKey: Hashable { var face: FaceKey; var left: UInt32; var right: UInt32 }
    struct MatchKey: Hashable { var family: String; var weight: Int; var italic: Bool }
    struct CascadeKey: Hashable { var match: MatchKey; var cascadeList: [String] }

    let state = Locked(State())

    /// The most bytes of glyph outlines kept (about 48 a path element); past
    /// it the outlines are dropped and read again as they are used. A
    /// glyph's outline has at most 65,535 points (FreeType's limit), so a
    /// font cannot make this grow with its claims: a composite glyph that
    /// repeats a large one thousands of times, or a face of 65,535 glyphs.
    let maximumOutlineBytes: Int

    init(maximumOutlineBytes: Int = 64 << 20) {
        self.maximumOutlineBytes = Swift.max(1, maximumOutlineBytes)
    }

    /// Bytes of glyph outlines held now, about.
    var outlineBytes: Int { state.withLock { $0.glyphBytes } }

    // MARK: Opening faces

    /// The face at `index` in the font file at `path`.
    /// - Throws: `TextError.fontFile` naming the file when it is missing, truncated
    ///   or not a font FreeType can read.
    public func face(path: String, index: Int = 0) throws(TextError) -> FontFace {
        let result: Result<FontFace, TextError> = state.withLock { s in
            Result { () throws(TextError) -> FontFace in try FontLibrary.open(&s, path: path, index: index, library: self) }
        }
        return try result.get()
    }

    private static func open(_ s: inout State, path: String, index: Int, library: FontLibrary) throws(TextError) -> FontFace {
        let key = FaceKey(path: path, index: index)
        if let open = s.faces[key] { return open.object }
        if s.freetype == nil {
            var lib: FT_Library?
            guard FT_Init_FreeType(&lib) == 0, lib != nil else { throw .fontFile(path: path, reason: "FreeType could not start") }
            s.freetype = lib
        }
        var face: FT_Face?
        let error = FT_New_Face(s.freetype, path, FT_Long(index), &face)
        guard error == 0, let face else {
            throw .fontFile(path: path, reason: FontLibrary.describe(error, path: path))
        }
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let color = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        // Outline fonts, and colour bitmap fonts (CBDT or sbix, as Noto Color
        // Emoji is), whose strikes are scaled to the text's size.
        let colorBitmaps = color && flags & FT_Long(FT_FACE_FLAG_FIXED_SIZES) != 0 && face.pointee.num_fixed_sizes > 0
        // FreeType leaves a bitmap face's em and vertical metrics at zero; its
        // `head` and `hhea` tables have them, as HarfBuzz reads them.
        var unitsPerEm = Double(face.pointee.units_per_EM)
        var ascender = Double(face.pointee.ascender), descender = -Double(face.pointee.descender)
        var lineHeight = Double(face.pointee.height)
        if !scalable, colorBitmaps,
            let head = FT_Get_Sfnt_Table(face, FT_SFNT_HEAD)?.assumingMemoryBound(to: TT_Header.self),
            let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self)
        {
            unitsPerEm = Double(head.pointee.Units_Per_EM)
            ascender = Double(hhea.pointee.Ascender)
            descender = -Double(hhea.pointee.Descender)
            lineHeight = ascender + descender + Double(hhea.pointee.Line_Gap)
        }
        guard scalable || colorBitmaps, unitsPerEm > 0 else {
            FT_Done_Face(face)
            throw .fontFile(path: path, reason: "not a scalable (outline) font or a colour bitmap font")
        }
        let f = face.pointee
        var capHeight = ascender * 0.7, xHeight = ascender * 0.5
        if let os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self), os2.pointee.version >= 2 {
            capHeight = Double(os2.pointee.sCapHeight)
            xHeight = Double(os2.pointee.sxHeight)
        }
        let metrics = FaceMetrics(
            family: f.family_name.map { String(cString: $0) } ?? "",
            style: f.style_name.map { String(cString: $0) } ?? "",
            unitsPerEm: unitsPerEm,
            ascender: ascender, descender: descender,
            lineHeight: lineHeight, capHeight: capHeight, xHeight: xHeight,
            hasKerning: f.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0,
            hasColorBitmaps: !scalable && colorBitmaps)
        let object = FontFace(path: path, index: index, library: library, metrics: metrics)
        s.faces[key] = (face, object)
        return object
    }

    /// Makes the fonts in the file at `path` available by their family names
    /// to every `Font` in this process, beside the installed ones (as
    /// `CTFontManagerRegisterFontsForURL` with the process scope does): an
    /// app's own fonts, or a document's. Every face in the file (a `.ttc`
    /// holds several) is opened first, so a file FreeType cannot read is
    /// refused before fontconfig sees it. Registering a file twice is
    /// harmless.
    /// - Returns: the family names of its faces, in order, without repeats.
    /// - Throws: `TextError.fontFile` naming the file when it is missing,
    ///   not a font, or fontconfig will not take it.
    @discardableResult
    public func registerFonts(at path: String) throws(TextError) -> [String] {
        let result: Result<[String], TextError> = state.withLock { s in
            Result { () throws(TextError) -> [String] in
                let first = try FontLibrary.open(&s, path: path, index: 0, library: self)
                let count = Swift.max(1, Swift.min(1000, Int(s.faces[FaceKey(path: path, index: 0)]?.face.pointee.num_faces ?? 1)))
                var families = [first.familyName]
                for i in 1..<count {
                    let face = try FontLibrary.open(&s, path: path, index: i, library: self)
                    if !families.contains(face.familyName) { families.append(face.familyName) }
                }
                if !s.configReady { s.configReady = FcInit() != 0 }
                let added = path.withCString { FcConfigAppFontAddFile(nil, UnsafePointer<FcChar8>(OpaquePointer($0))) }
                guard added != 0 else { throw .fontFile(path: path, reason: "fontconfig did not take the font") }
                // Lookups made before may now find it.
                s.matches.removeAll()
                s.cascades.removeAll()
                return families
            }
        }
        return try result.get()
    }

    private static func describe(_ error: FT_Error, path: String) -> String {
        switch error {
        case 1: return "cannot open the file (missing or unreadable)"  // FT_Err_Cannot_Open_Resource
        case 2: return "not a font file FreeType recognizes"  // FT_Err_Unknown_File_Format
        case 3: return "the font file is broken or truncated"  // FT_Err_Invalid_File_Format
        case 6: return "no face with that index in the file"  // FT_Err_Invalid_Argument
        case 7: return "the font uses a feature FreeType does not implement"  // FT_Err_Unimplemented_Feature
        case 8:  // FT_Err_Invalid_Table
            return "a table of the font is invalid (for one, FreeType refuses a unitsPerEm outside 16 to 16,384)"
        case 9: return "a table of the font points outside the file"  // FT_Err_Invalid_Offset
        default: return "FreeType error \(error) while opening the font"
        }
    }

    // MARK: Glyphs

    func glyphIndex(_ face: FontFace, _ scalar: Unicode.Scalar) -> UInt32? {
        let key = FaceKey(path: face.path, index: face.index)
        return state.withLock { s -> UInt32? in
            if let known = s.glyphIndices[key]?[scalar.value] { return known == 0 ? nil : known }
            guard let ft = s.faces[key]?.face else { return nil }
            let g = UInt32(FT_Get_Char_Index(ft, FT_ULong(scalar.value)))
            s.glyphIndices[key, default: [:]][scalar.value] = g
            return g == 0 ? nil : g
        }
    }

    func glyphData(_ face: FontFace, _ glyph: UInt32) -> GlyphData {
        let key = GlyphKey(face: FaceKey(path: face.path, index: face.index), glyph: glyph)
        return state.withLock { s -> GlyphData in
            if let known = s.glyphs[key] { return known }
            var data = GlyphData(path: Path(), advance: 0)
            if let ft = s.faces[key.face]?.face,
                FT_Load_Glyph(ft, glyph, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                let slot = ft.pointee.glyph
            {
                data = GlyphData(path: FontLibrary.path(of: slot.pointee.outline), advance: Double(slot.pointee.advance.x))
            } else if let ft = s.faces[key.face]?.face {
                // A colour bitmap face has no outlines; its advances are in hmtx.
                var advance: FT_Fixed = 0
                if FT_Get_Advance(ft, glyph, FT_Int32(FT_LOAD_NO_SCALE), &advance) == 0 {
                    data = GlyphData(path: Path(), advance: Double(advance))
                }
            }
            let bytes = 64 + 48 * data.path.elementCount
            if s.glyphBytes + bytes > maximumOutlineBytes {
                s.glyphs.removeAll()
                s.glyphBytes = 0
            }
            if bytes <= maximumOutlineBytes {
                s.glyphs[key] = data
                s.glyphBytes += bytes
            }
            return data
        }
    }

    /// A glyph of a colour bitmap face at its largest strike: premultiplied
    /// RGBA pixels, the bitmap's left and top bearings in strike pixels (top
    /// up from the baseline), and the strike's pixels per em. nil when the
    /// glyph has no bitmap.
    func colorBitmap(_ face: FontFace, _ glyph: UInt32) -> (image: Image, left: Double, top: Double, ppem: Double)? {
        let key = FaceKey(path: face.path, index: face.index)
        return state.withLock { s -> (image: Image, left: Double, top: Double, ppem: Double)? in
            guard let ft = s.faces[key]?.face, ft.pointee.num_fixed_sizes > 0, let sizes = ft.pointee.available_sizes else { return nil }
            var best = 0
            for i in 0..<Int(ft.pointee.num_fixed_sizes) where sizes[i].y_ppem > sizes[best].y_ppem { best = i }
            guard FT_Select_Size(ft, FT_Int(best)) == 0,
                FT_Load_Glyph(ft, glyph, FT_Int32(FT_LOAD_COLOR)) == 0, let slot = ft.pointee.glyph
            else { return nil }
            let bitmap = slot.pointee.bitmap
            let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            guard w > 0, h > 0, w <= 1024, h <= 1024, let buffer = bitmap.buffer,
                bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), pitch >= w * 4
            else { return nil }
            var rgba = [UInt8](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    // FreeType's BGRA is premultiplied, as Image's RGBA is.
                    let sp = y * pitch + x * 4, dp = (y * w + x) * 4
                    rgba[dp] = buffer[sp + 2]; rgba[dp + 1] = buffer[sp + 1]; rgba[dp + 2] = buffer[sp]; rgba[dp + 3] = buffer[sp + 3]
                }
            }
            guard let image = try? Image(width: w, height: h, premultipliedPixels: rgba) else { return nil }
            return (image, Double(slot.pointee.bitmap_left), Double(slot.pointee.bitmap_top), Double(ft.pointee.size.pointee.metrics.y_ppem))
        }
    }

    func kerning(_ face: FontFace, _ left: UInt32, _ right: UInt32) -> Double {
        guard face.hasKerning else { return 0 }
        let key = KerningKey(face: FaceKey(path: face.path, index: face.index), left: left, right: right)
        return state.withLock { s -> Double in
            if let known = s.kerning[key] { return known }
            var value = 0.0
            if let ft = s.faces[key.face]?.face {
                var v = FT_Vector()
                if FT_Get_Kerning(ft, left, right, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 { value = Double(v.x) }
            }
            // Pairs are many (CJK text alone has millions): keep the cache bounded.
            if s.kerning.count >= 200_000 { s.kerning.removeAll(keepingCapacity: true) }
            s.kerning[key] = value
            return value
        }
    }

    /// An FT_Outline as a path: contours of on-curve points, quadratic ("conic")
    /// control points with the implied on-curve points between two of them, and
    /// cubic control point pairs. y is flipped to grow down.
    static func path(of outline: FT_Outline) -> Path {
        var path = Path()
        let n = Int(outline.n_points)
        guard n > 0, let points = outline.points, let tags = outline.tags, let contours = outline.contours else { return path }
        func pt(_ i: Int) -> Point { Point(x: Double(points[i].x), y: -Double(points[i].y)) }
        func kind(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: tags[i]) & 3 }  // 1 on, 0 conic, 2 cubic
        var start = 0
        for c in 0..<Int(outline.n_contours) {
            let end = Int(contours[c])
            guard end >= start, end < n else { break }
            let count = end - start + 1
            func at(_ k: Int) -> Int { start + ((k % count) + count) % count }
            // Begin at an on-curve point or, in a contour of conic control points
            // only, midway between the first two of them.
            var first = 0
            while first < count && kind(at(first)) != 1 { first += 1 }
            let origin: Point
            var pendingConic: Point? = nil
            var k: Int, stop: Int
            if first == count {
                origin = Point(x: (pt(at(0)).x + pt(at(1)).x) / 2, y: (pt(at(0)).y + pt(at(1)).y) / 2)
                // Control points 1, 2, …, count − 1, 0, then back to the start.
                k = 1
                stop = count + 1
            } else {
                origin = pt(at(first))
                k = first + 1
                stop = first + count
            }
            path.move(to: origin)
            while k <= stop {
                let i = at(k)
                let p = k == stop ? origin : pt(i)
                let t = k == stop ? 1 : kind(i)
                switch t {
                case 1:
                    if let c = pendingConic { path.addQuadCurve(to: p, control: c); pendingConic = nil } else { path.addLine(to: p) }
                case 0:
                    if let c = pendingConic {
                        let mid = Point(x: (c.x + p.x) / 2, y: (c.y + p.y) / 2)
                        path.addQuadCurve(to: mid, control: c)
                    }
                    pendingConic = p
                default:
                    // Two cubic control points, then the end point.
                    let c2 = pt(at(k + 1))
                    let endIndex = k + 2
                    let e = endIndex >= stop ? origin : pt(at(endIndex))
                    path.addCurve(to: e, control1: p, control2: c2)
                    k += 2
                }
                k += 1
            }
            if let c = pendingConic { path.addQuadCurve(to: origin, control: c) }
            path.closeSubpath()
            start = end + 1
        }
        return path
    }

    // MARK: Finding fonts

    /// The faces fontconfig offers for a family, weight and slant, best first: the
    /// first is the font asked for (or its nearest match), the rest its fallbacks.
    /// Never empty while any font is installed.
    public func faces(family: String, weight: FontWeight, italic: Bool) -> [FontFace] {
        let key = MatchKey(family: family, weight: weight.rawValue, italic: italic)
        return state.withLock { s -> [FontFace] in
            if let known = s.matches[key] { return known }
            var found: [FontFace] = []
            if !s.configReady {
                s.configReady = FcInit() != 0
            }
            if let pattern = FcPatternCreate() {
                defer { FcPatternDestroy(pattern) }
                _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafePointer<FcChar8>(OpaquePointer($0))) }
                FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight.rawValue)))
                FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
                FcConfigSubstitute(nil, pattern, FcMatchPattern)
                FcDefaultSubstitute(pattern)
                var result = FcResultMatch
                if let set = FcFontSort(nil, pattern, FcTrue, nil, &result) {
                    defer { FcFontSetDestroy(set) }
                    for i in 0..<Int(set.pointee.nfont) {
                        guard let font = set.pointee.fonts[i] else { continue }
                        var file: UnsafeMutablePointer<FcChar8>?
                        var index: Int32 = 0
                        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
                        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
                        let path = String(cString: UnsafePointer<CChar>(OpaquePointer(file)))
                        if s.failures[path] != nil { continue }
                        do {
                            let face = try FontLibrary.open(&s, path: path, index: Int(index), library: self)
                            if !found.contains(where: { $0 === face }) { found.append(face) }
                        } catch {
                            s.failures[path] = String(describing: error)
                        }
                    }
                }
            }
            s.matches[key] = found
            return found
        }
    }
}

extension FontLibrary {
    /// The faces for a family, weight and slant with a cascade list: the
    /// family's own face, then the first face of each installed family of
    /// `cascadeList` (a family counts as installed when fontconfig's best
    /// match for it has that family name, in any case), then fontconfig's
    /// fallbacks that are not already in the chain.
    public func faces(family: String, weight: FontWeight, italic: Bool, cascadeList: [String]) -> [FontFace] {
        guard !cascadeList.isEmpty else { return faces(family: family, weight: weight, italic: italic) }
        let key = CascadeKey(match: MatchKey(family: family, weight: weight.rawValue, italic: italic), cascadeList: cascadeList)
        if let known = state.withLock({ $0.cascades[key] }) { return known }
        let chain = faces(family: family, weight: weight, italic: italic)
        guard let own = chain.first else { return chain }
        var found = [own]
        for name in cascadeList {
            guard let face = faces(family: name, weight: weight, italic: italic).first,
                face.familyName.lowercased() == name.lowercased(),
                !found.contains(where: { $0 === face })
            else { continue }
            found.append(face)
        }
        found += chain.dropFirst().filter { face in !found.contains { $0 === face } }
        return state.withLock { s in
            if let known = s.cascades[key] { return known }
            s.cascades[key] = found
            return found
        }
    }

    /// The glyph rendered by FreeType's own anti-aliasing rasterizer (unhinted,
    /// 256 grey levels) at `size` pixels, shifted right by `shift` of a pixel:
    /// the alternative to Strata's rasterizer that `strata-bench glyphs` measures
    /// against it. Drawing uses Strata's (see docs/Architecture.md).
    public func freeTypeMask(face: FontFace, glyph: UInt32, size: Double, shift: Double) -> CoverageMask {
        let key = FaceKey(path: face.path, index: face.index)
        guard size.isFinite, size > 0, size < 4096, shift.isFinite, abs(shift) < 64 else {
            return CoverageMask(width: 0, height: 0, left: 0, top: 0, coverage: [])
        }
        return state.withLock { s -> CoverageMask in
            guard let ft = s.faces[key]?.face else { return CoverageMask(width: 0, height: 0, left: 0, top: 0, coverage: []) }
            FT_Set_Char_Size(ft, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
            var delta = FT_Vector(x: FT_Pos((shift * 64).rounded()), y: 0)
            FT_Set_Transform(ft, nil, &delta)
            defer { FT_Set_Transform(ft, nil, nil) }
            guard FT_Load_Glyph(ft, glyph, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0, let slot = ft.pointee.glyph,
                FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0
            else {
                return CoverageMask(width: 0, height: 0, left: 0, top: 0, coverage: [])
            }
            let bitmap = slot.pointee.bitmap
            let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            var bytes = [UInt8](repeating: 0, count: w * h)
            if let buffer = bitmap.buffer, w > 0, h > 0 {
                for y in 0..<h { for x in 0..<w { bytes[y * w + x] = buffer[y * pitch + x] } }
            }
            return CoverageMask(
                width: w, height: h, left: Int(slot.pointee.bitmap_left), top: -Int(slot.pointee.bitmap_top),
                coverage: bytes)
        }
    }
}
