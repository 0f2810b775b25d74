/// A growable buffer of trivial values with no copy-on-write or exclusivity
/// checks in the way: the rasterizer's hot loops append to these millions of times.
struct ScratchBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func free() { base.deallocate() }

    @inline(__always) mutating func append(_ value: Element) {
        if count == capacity { grow(count + 1) }
        (base + count).initialize(to: value)
        count += 1
    }

    @inline(__always) mutating func removeAll() { count = 0 }

    /// Declares the first `n` elements initialized (written through `base`).
    @inline(__always) mutating func setCount(_ n: Int) { count = n }

    /// Makes room for `n` elements in all, keeping the first `count`.
    mutating func reserve(_ n: Int) {
        if n > capacity { grow(n) }
    }

    /// Gives back memory beyond `limit` elements, once the buffer is empty.
    mutating func shrink(to limit: Int) {
        guard count == 0, capacity > limit else { return }
        base.deallocate()
        capacity = limit
        base = .allocate(capacity: limit)
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(n, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }
}
