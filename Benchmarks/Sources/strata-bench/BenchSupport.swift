import Foundation
import StrataDemos

/// The cases a `--cases A,B` option picks: whether each name is to run
/// (every name when the option is absent), and a reporter that prints
/// `strata CASE VALUE` for the chosen ones.
struct CaseSelection {
    let wanted: Set<String>?

    init(_ cases: String?) { wanted = cases.map { Set($0.split(separator: ",").map(String.init)) } }

    func runs(_ name: String) -> Bool { wanted?.contains(name) ?? true }

    var report: (String, Double) -> Void {
        { name, value in
            if runs(name) { print("strata \(name) \(String(format: "%.3f", value))") }
        }
    }
}
