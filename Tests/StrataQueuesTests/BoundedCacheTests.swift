import Testing

@testable import StrataQueues

@Suite struct BoundedCacheTests {
    @Test func theOldestGoFirstWithinBothBounds() {
        let cache = BoundedCache<Int, String>(maximumEntries: 3, maximumBytes: 100)
        for i in 0..<5 { cache.insert("v\(i)", for: i, bytes: 10) }
        #expect(cache.usage == (entries: 3, bytes: 30))
        #expect(cache.value(for: 0) == nil && cache.value(for: 4) == "v4")
        cache.insert("big", for: 9, bytes: 80)  // 30 + 80 > 100: the oldest goes
        #expect(cache.values(for: [2, 3, 4, 9]) == [nil, "v3", "v4", "big"])
        #expect(cache.usage == (entries: 3, bytes: 100))
        // The first value kept for a key stays.
        cache.insert("again", for: 9, bytes: 1)
        #expect(cache.value(for: 9) == "big")
    }

    @Test func aValueOverTheByteBoundIsNotKeptAndFlushesNothing() {
        let cache = BoundedCache<Int, Int>(maximumEntries: 10, maximumBytes: 100)
        cache.insert(1, for: 1, bytes: 40)
        cache.insert(2, for: 2, bytes: 101)
        cache.insert(3, for: 3, bytes: .max)
        cache.insert(4, for: 4, bytes: -5)  // counts as 0
        #expect(cache.values(for: [1, 2, 3, 4]) == [1, nil, nil, 4])
        #expect(cache.usage == (entries: 2, bytes: 40))
        // Bounds below 1 count as 1; a huge one is kept from overflowing.
        let tiny = BoundedCache<Int, Int>(maximumEntries: -1, maximumBytes: 0)
        #expect(tiny.maximumEntries == 1 && tiny.maximumBytes == 1)
        let huge = BoundedCache<Int, Int>(maximumEntries: 4, maximumBytes: .max)
        huge.insert(1, for: 1, bytes: .max / 2)
        huge.insert(2, for: 2, bytes: .max / 2)
        #expect(huge.usage.entries == 1 && huge.value(for: 2) == 2)
    }
}
