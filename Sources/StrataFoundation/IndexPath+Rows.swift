public import Foundation

// UIKit's additions to Foundation's `IndexPath`, in one module that both
// StrataControls (whose lists use them) and UIKit re-export, so that code
// importing both sees one definition.

extension IndexPath {
    /// The index path of `row` in `section`, as UIKit's `IndexPath(row:section:)`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The section (the first index), as UIKit's `IndexPath.section`.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row in the section (the second index), as UIKit's `IndexPath.row`.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The index path of `item` in `section` (collection views' name for a row).
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The item in the section: the second index, as `row`.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
