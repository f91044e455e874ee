import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// The places of an element observation: a list in blocks, checked against an array under the
/// same operations, with blocks small enough that every split and join happens.
@Suite("Block lists")
struct BlockListTests {
  @Test(
    "random insertions, removals and replacements leave what an array would",
    arguments: [2, 4, 16])
  func matchesAnArray(blockSize: Int) {
    var generator = SeededGenerator(seed: UInt64(blockSize))
    var list = BlockList<Int>(blockSize: blockSize)
    var array: [Int] = []
    for step in 0..<4_000 {
      // Grow for the first half, shrink to nothing in the second.
      let grows = step < 2_000 ? Int.random(in: 0..<10, using: &generator) < 7 : false
      let choice = Int.random(in: 0..<10, using: &generator)
      if array.isEmpty || (grows && choice < 8) {
        let index = Int.random(in: 0...array.count, using: &generator)
        list.insert(step, at: index)
        array.insert(step, at: index)
      } else if choice < 8 || step >= 2_000 {
        let index = Int.random(in: 0..<array.count, using: &generator)
        #expect(list.remove(at: index) == array.remove(at: index))
      } else {
        let index = Int.random(in: 0..<array.count, using: &generator)
        list[index] = -step
        array[index] = -step
      }
      guard step % 97 == 0 || array.count < 3 else { continue }
      #expect(Array(list) == array && list.count == array.count)
      #expect(array.indices.allSatisfy { list[$0] == array[$0] })
      // Blocks are never empty, never over twice the size, and not left small in numbers.
      #expect(list.blockCounts.allSatisfy { $0 > 0 && $0 <= 2 * blockSize })
      #expect(list.blockCounts.count <= array.count / max(blockSize / 4, 1) + 2)
    }
    while !array.isEmpty {
      let index = array.count / 2
      #expect(list.remove(at: index) == array.remove(at: index))
    }
    #expect(list.isEmpty && list.blockCounts.isEmpty)
  }

  @Test("made from a sequence, appended to, searched")
  func madeAndSearched() {
    var list = BlockList(0..<10, blockSize: 4)
    #expect(list.blockCounts == [4, 4, 2])
    list.insert(10, at: 10)
    list.insert(-1, at: 0)
    #expect(Array(list) == [-1] + Array(0...10))
    #expect(list.firstIndex { $0 == 7 } == 8)
    #expect(list.firstIndex { $0 > 100 } == nil)
    #expect(BlockList<Int>().isEmpty && Array(BlockList<Int>([])) == [])
  }
}
