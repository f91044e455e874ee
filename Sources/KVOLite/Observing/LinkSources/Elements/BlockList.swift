import KVOLiteLocking

/// A list kept in blocks of between `blockSize / 4` and `2 × blockSize` elements (but for a
/// list shorter than that), so that an insertion or a removal at an index moves one block's
/// elements and the list of blocks, not every element after it: O(n / blockSize + blockSize)
/// instead of an array's O(n). Reading an element at an index finds its block by the blocks'
/// counts, O(n / blockSize).
///
/// The places of an ``ElementMembership`` (one per element of a followed relationship) are one:
/// with 100,000 places, an insertion in the middle of an array of them moved 400 KB.
struct BlockList<Element> {
  /// The elements, in order, in blocks none of which is empty.
  private var blocks: [[Element]] = []
  private(set) var count = 0
  /// The size a block is split back to when it grows past twice this.
  let blockSize: Int

  /// An empty list whose blocks hold about `blockSize` elements.
  init(blockSize: Int = 512) {
    self.blockSize = Swift.max(blockSize, 2)
  }

  /// A list of `elements`, in blocks of `blockSize`.
  init(_ elements: some Sequence<Element>, blockSize: Int = 512) {
    self.init(blockSize: blockSize)
    var block: [Element] = []
    for element in elements {
      block.append(element)
      if block.count == self.blockSize {
        blocks.append(block)
        block = []
      }
    }
    if !block.isEmpty { blocks.append(block) }
    count = blocks.reduce(0) { $0 + $1.count }
  }

  var isEmpty: Bool { count == 0 }

  /// The block of the element at `index` (`0 ..< count`) and its offset there.
  private func locate(_ index: Int) -> (block: Int, offset: Int) {
    require(index >= 0 && index < count, "BlockList: index \(index) out of 0..<\(count)")
    var offset = index
    if offset >= count - blocks[blocks.count - 1].count {
      // The last block, the usual place of an append's neighbours: found from the end.
      return (blocks.count - 1, offset - (count - blocks[blocks.count - 1].count))
    }
    for (position, block) in blocks.enumerated() {
      if offset < block.count { return (position, offset) }
      offset -= block.count
    }
    fatalError("BlockList: the blocks' counts do not add up to \(count)")
  }

  subscript(index: Int) -> Element {
    get {
      let (block, offset) = locate(index)
      return blocks[block][offset]
    }
    set {
      let (block, offset) = locate(index)
      blocks[block][offset] = newValue
    }
  }

  /// Inserts `element` at `index` (`0 ... count`).
  mutating func insert(_ element: Element, at index: Int) {
    require(index >= 0 && index <= count, "BlockList: index \(index) out of 0...\(count)")
    guard !blocks.isEmpty else {
      blocks = [[element]]
      count = 1
      return
    }
    let (block, offset) =
      index == count ? (blocks.count - 1, blocks[blocks.count - 1].count) : locate(index)
    blocks[block].insert(element, at: offset)
    count += 1
    if blocks[block].count > 2 * blockSize {
      let tail = Array(blocks[block][blockSize...])
      blocks[block].removeSubrange(blockSize...)
      blocks.insert(tail, at: block + 1)
    }
  }

  /// Removes and returns the element at `index` (`0 ..< count`).
  @discardableResult
  mutating func remove(at index: Int) -> Element {
    let (block, offset) = locate(index)
    let element = blocks[block].remove(at: offset)
    count -= 1
    if blocks[block].isEmpty {
      blocks.remove(at: block)
    } else if blocks[block].count < blockSize / 4 {
      // A small block joins a neighbour (split again if that makes it too large), so that
      // removals never leave the list in many small blocks.
      let neighbour = block + 1 < blocks.count ? block + 1 : block - 1
      guard neighbour >= 0 else { return element }
      let (first, second) = (Swift.min(block, neighbour), Swift.max(block, neighbour))
      let joined = blocks[first] + blocks[second]
      blocks.remove(at: second)
      if joined.count > 2 * blockSize {
        let middle = joined.count / 2
        blocks[first] = Array(joined[..<middle])
        blocks.insert(Array(joined[middle...]), at: second)
      } else {
        blocks[first] = joined
      }
    }
    return element
  }

  /// The index of the first element that satisfies `predicate`, if any: O(n).
  func firstIndex(where predicate: (Element) throws -> Bool) rethrows -> Int? {
    var base = 0
    for block in blocks {
      if let offset = try block.firstIndex(where: predicate) { return base + offset }
      base += block.count
    }
    return nil
  }

  /// The blocks' sizes, first to last (for tests).
  var blockCounts: [Int] { blocks.map(\.count) }
}

extension BlockList: Sequence {
  func makeIterator() -> FlattenSequence<[[Element]]>.Iterator {
    blocks.joined().makeIterator()
  }

  var underestimatedCount: Int { count }
}
