import KVOLiteLocking

/// A first-in, first-out queue whose `append` and `removeFirst` take constant amortized time
/// per element (an array's `removeFirst` moves every element after the first). A removed
/// element is let go of at once; the storage is compacted when more than half of it is removed
/// slots.
struct FIFO<Element> {
  private var storage: [Element?] = []
  private var head = 0

  /// An empty queue.
  init() {}

  /// Whether the queue holds nothing.
  var isEmpty: Bool { head == storage.count }

  /// How many elements the queue holds.
  var count: Int { storage.count - head }

  /// The elements, first to last.
  var elements: [Element] { storage[head...].map { $0! } }

  /// Adds `element` at the end.
  mutating func append(_ element: Element) { storage.append(element) }

  /// Removes and returns the first element; the queue must not be empty.
  mutating func removeFirst() -> Element {
    require(!isEmpty, "removeFirst on an empty FIFO")
    let element = storage[head].take()!
    advance(by: 1)
    return element
  }

  /// Removes the first `count` elements and returns them, first to last; the queue must hold
  /// at least `count`.
  mutating func removeFirst(_ count: Int) -> [Element] {
    require(count >= 0 && count <= self.count, "removeFirst beyond the end of a FIFO")
    var removed: [Element] = []
    removed.reserveCapacity(count)
    for index in head..<head + count { removed.append(storage[index].take()!) }
    advance(by: count)
    return removed
  }

  /// Moves the front past `count` removed slots, and compacts the storage when they are most
  /// of it.
  private mutating func advance(by count: Int) {
    head += count
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }
}
