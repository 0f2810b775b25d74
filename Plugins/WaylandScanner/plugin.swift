import Foundation
import PackagePlugin

/// Makes the interface tables of the Wayland protocols Strata speaks beyond
/// the core one, with `wayland-scanner private-code`, from the XML of
/// Debian's wayland-protocols (`/usr/share/wayland-protocols`, or
/// `WAYLAND_PROTOCOLS_DIR`). Nothing generated is checked in.
@main
struct WaylandScanner: BuildToolPlugin {
    /// The protocols, by their XML's path under the protocols directory.
    static let protocols = [
        "stable/xdg-shell/xdg-shell.xml",
        "stable/viewporter/viewporter.xml",
        "staging/fractional-scale/fractional-scale-v1.xml",
        "unstable/xdg-decoration/xdg-decoration-unstable-v1.xml",
        "unstable/text-input/text-input-unstable-v3.xml",
        "unstable/primary-selection/primary-selection-unstable-v1.xml",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let env = ProcessInfo.processInfo.environment
        // The tool is a system one (Debian's libwayland-bin), found on PATH.
        let path = (env["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        guard
            let scanner = path.map({ URL(fileURLWithPath: $0).appendingPathComponent("wayland-scanner") })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw ScannerError("wayland-scanner is not installed (scripts/install-deps.sh installs libwayland-bin)") }
        let root = URL(fileURLWithPath: env["WAYLAND_PROTOCOLS_DIR"] ?? "/usr/share/wayland-protocols")
        return Self.protocols.map { path in
            let xml = root.appendingPathComponent(path)
            let name = xml.deletingPathExtension().lastPathComponent
            let out = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)-protocol.c")
            return .buildCommand(
                displayName: "wayland-scanner \(name)", executable: scanner,
                arguments: ["private-code", xml.path, out.path], inputFiles: [xml], outputFiles: [out])
        }
    }
}

struct ScannerError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
