// Lists take UIKit's IndexPath(row:section:), `row` and `section`, which
// StrataFoundation adds to Foundation's IndexPath: re-exported so that
// `import StrataControls` brings them.
@_exported import StrataFoundation
