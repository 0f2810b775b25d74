// The queue pool and its queues are part of the layer system's API
// (`AsyncLayer(pool:)`, `TiledLayer`'s drawing), so an app that imports
// StrataLayers sees them without importing the target that holds them.
@_exported import StrataQueues
