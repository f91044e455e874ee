/// A first-in, first-out queue whose `append` and `removeFirst` take constant amortized time
/// (an array's `removeFirst` moves every element after the first). A removed element is let go
/// of at once; the storage is compacted when more than half of it is removed slots.
struct FIFO<Element> {
  private var storage: [Element?] = []
  private var head = 0

  /// An empty queue.
  init() {}

  /// Whether the queue holds nothing.
  var isEmpty: Bool { head == storage.count }

  /// How many elements the queue holds.
  var count: Int { storage.count - head }

  /// Adds `element` at the end.
  mutating func append(_ element: Element) { storage.append(element) }

  /// Removes and returns the first element; the queue must not be empty.
  mutating func removeFirst() -> Element {
    precondition(!isEmpty, "removeFirst on an empty FIFO")
    let element = storage[head].take()!
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }
}
