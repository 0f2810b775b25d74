// What an app that imports StrataLayers sees without importing more, as
// QuartzCore brings Core Graphics along: the drawing engine's types every
// layer property uses (`Rect`, `Point`, `Color`, `Image`, `Path`, `Canvas`),
// and the queue pool and its queues, which are part of the layer API
// (`AsyncLayer`, `TiledLayer`'s drawing).
@_exported import StrataGraphics
@_exported import StrataQueues
