import ArgumentParser

/// The benchmarks: each subcommand times one part of Strata and prints
/// `strata CASE VALUE` lines in the format of the peers' scripts (see
/// Benchmarks/README.md), so that a run pairs line by line with theirs.
@main
struct StrataBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench",
        abstract: "Benchmarks, printed in the format of the peers' scripts.",
        subcommands: [
            RasterBench.self, SpanBench.self, TextBench.self, GlyphBench.self, LayersBench.self, TilesBench.self, LimitsBench.self, ChartsBench.self,
            ControlsBench.self, FeedBench.self, WindowBench.self, DocumentsBench.self, GridBench.self, CallsBench.self,
        ])
}
