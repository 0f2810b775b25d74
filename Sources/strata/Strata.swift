import ArgumentParser

@main
struct Strata: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Strata: Core Graphics-style rendering for Swift on Linux.",
        subcommands: [
            Gallery.self, DemoCommand.self, Stream.self, ChartCommand.self, RulerCommand.self, FeedCommand.self, Tiles.self, TileViewer.self,
        ])
}
