import ArgumentParser

@main
struct Strata: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Strata: Core Graphics-style rendering for Swift on Linux.",
        subcommands: [
            Gallery.self, DemoCommand.self, Stream.self, ChartCommand.self, RulerCommand.self, FeedCommand.self, Tiles.self, TileViewer.self,
            Bench.self,
        ])
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks, printed in the format of ../shared/bench.",
        subcommands: [
            RasterBench.self, SpanBench.self, TextBench.self, GlyphBench.self, LayersBench.self, TilesBench.self, LimitsBench.self, ChartsBench.self,
            ControlsBench.self, FeedBench.self, WindowBench.self,
        ])
}
