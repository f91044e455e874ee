import Foundation
import KVOLite
import KVOLiteLocking
import KVOLiteTestSupport
import Observation
import Synchronization
import Testing

/// A model whose array is mutated in place, and the same model as a plain class.
private final class Crate: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var items: [Int] = []
  @Observed var count = 0
  var total: Int { items.reduce(0, +) }
}

private final class PlainCrate {
  var items: [Int] = []
  var count = 0
}

/// The same model, seen by Swift Observation too.
private final class TrackedCrate: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var items: [Int] = []
}

private struct Refused: Error {}

/// Runs `body` on a thread of its own, outside any task (Swift Testing runs tests in tasks, and
/// a mutation in a task copies: it may be suspended at an `await`), and waits for it.
private func offTask(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.start()
  done.wait()
}

/// A row of a table that keeps the token of an observation: releasing the row ends it.
private final class Row: @unchecked Sendable {
  var token: ObservationToken?
}

/// A table whose rows are removed in place while another thread's handler reads them.
private final class Table: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
  @Observed var rows: [Row] = []
}

/// Appends 2, waits for another task to run, appends 3: a mutation suspended at an `await`.
private nonisolated func appendAcrossAwait(_ items: inout [Int]) async {
  items.append(2)
  await Task.yield()
  items.append(3)
}

extension Array where Element == Int {
  /// Appends `value`, then throws.
  fileprivate mutating func appendThenThrow(_ value: Int) throws {
    append(value)
    throw Refused()
  }
}

/// `@Observed` properties mutated in place (`items.append(x)`): the value the caller mutates is
/// the stored one, not a copy, when nothing observes the property; an observed one is read,
/// mutated and set, and its observers hear one setting.
@Suite("In-place mutation of @Observed properties")
struct InPlaceMutationTests {
  @Test("every mutating form gives what a plain class's property gives")
  func sameAsPlain() {
    let results = Mutex<(kvolite: [Int], plain: [Int], counts: [Int])>(([], [], []))
    offTask {
      let crate = Crate()
      let plain = PlainCrate()
      func both(_ mutate: (inout [Int]) -> Void) {
        mutate(&crate.items)
        mutate(&plain.items)
      }
      for value in 0..<100 { crate.items.append(value) }
      for value in 0..<100 { plain.items.append(value) }
      both { $0.insert(-1, at: 50) }
      both { $0.remove(at: 10) }
      both { $0.removeAll { $0 % 3 == 0 } }
      both { $0.sort(by: >) }
      both { $0[0] += 1000 }
      both { $0.append(contentsOf: [7, 8, 9]) }
      crate.count += 5
      plain.count += 5
      results.withLock { $0 = (crate.items, plain.items, [crate.count, plain.count]) }
    }
    let (kvolite, plain, counts) = results.withLock { $0 }
    #expect(kvolite == plain)
    #expect(counts == [5, 5])
  }

  @Test("an in-place append does not copy the stored array; in a task it copies")
  func noCopy() async {
    @Sendable func addresses(_ crate: Crate) -> Bool {
      crate.items.reserveCapacity(64)
      crate.items.append(1)
      let before = crate.items.withUnsafeBufferPointer { $0.baseAddress }
      for value in 2...32 { crate.items.append(value) }
      return before == crate.items.withUnsafeBufferPointer { $0.baseAddress }
    }
    let inPlace = Mutex(false)
    offTask { inPlace.withLock { $0 = addresses(Crate()) } }
    #expect(inPlace.withLock { $0 })
    // This test runs in a task: there every mutation copies.
    #expect(!addresses(Crate()))
  }

  @Test("a mutation suspended at an await copies, and ends with every change")
  func acrossAwait() async {
    let crate = Crate()
    crate.items = [1]
    await appendAcrossAwait(&crate.items)
    #expect(crate.items == [1, 2, 3])
    #expect(!ThreadIdentity.isMutatingInPlace)
  }

  @Test("a mutation that throws keeps what it changed, as an inout access does")
  func throwing() {
    let results = Mutex<(kvolite: [Int], plain: [Int], threw: Int)>(([], [], 0))
    offTask {
      let crate = Crate()
      let plain = PlainCrate()
      var threw = 0
      do { try crate.items.appendThenThrow(1) } catch { threw += 1 }
      do { try plain.items.appendThenThrow(1) } catch { threw += 1 }
      results.withLock { $0 = (crate.items, plain.items, threw) }
    }
    let (kvolite, plain, threw) = results.withLock { $0 }
    #expect(threw == 2)
    #expect(kvolite == plain)
    #expect(kvolite == [1])
  }

  @Test("observed: an append is one setting, with the whole arrays as old and new")
  func observed() {
    let crate = Crate()
    crate.items = [1, 2]
    let log = Log<String>()
    let token = crate.observe(\.items, options: [.old, .new]) { _, change in
      log.append("\(change.kind) \(change.oldValue ?? []) \(change.newValue ?? [])")
    }
    crate.items.append(3)
    #expect(log.all == ["setting [1, 2] [1, 2, 3]"])
    token.invalidate()
    crate.items.append(4)
    #expect(log.all == ["setting [1, 2] [1, 2, 3]"])
    #expect(crate.items == [1, 2, 3, 4])
  }

  @Test("a computed property over the array is told of each in-place append")
  func foundInputs() {
    let crate = Crate()
    let log = Log<Int>()
    let token = crate.observe(\.total, options: [.new]) { _, change in
      log.append(change.newValue ?? -1)
    }
    crate.items.append(5)
    crate.items.append(6)
    #expect(log.all == [5, 11])
    token.invalidate()
  }

  @Test("Swift Observation hears an in-place append, as with @Observable")
  func swiftObservation() {
    let crate = TrackedCrate()
    let fired = Counter()
    withObservationTracking {
      _ = crate.items
    } onChange: {
      fired.increment()
    }
    crate.items.append(1)
    #expect(fired.count == 1)
    #expect(crate.items == [1])
  }

  @Test("another thread's reads wait for a mutation: every read sees a whole array")
  func concurrentReads() {
    let crate = Crate()
    let appends = 20_000
    let done = Atomic<Bool>(false)
    let wrong = Atomic<Int>(0)
    let reader = DispatchGroup()
    DispatchQueue.global().async(group: reader) {
      var last = 0
      while !done.load(ordering: .acquiring) {
        let items = crate.items
        // Every read is a prefix 0..<n of what the writer appends, and never shrinks.
        if items.count < last || items != Array(0..<items.count) {
          wrong.add(1, ordering: .relaxed)
        }
        last = items.count
      }
    }
    offTask {
      for value in 0..<appends { crate.items.append(value) }
    }
    done.store(true, ordering: .releasing)
    reader.wait()
    #expect(wrong.load(ordering: .relaxed) == 0)
    #expect(crate.items == Array(0..<appends))
  }

  @Test("an access from inside the mutation, on its thread, stops the program with a message")
  func reentry() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        offTask {
          let crate = Crate()
          crate.items = [1, 2, 3]
          crate.items.removeAll { _ in crate.items.isEmpty }
        }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        "KVOLite: an @Observed property was accessed from inside an in-place mutation of it (an append, a removeAll(where:) closure, an element's deinit) on the same thread; Swift forbids this for a stored property too (simultaneous access): copy the value out first, mutate the copy, and set it back"
      ))
  }

  @Test(
    "an element's deinit inside the mutation ends an observation whose handler, on another thread, waits to read the array"
  )
  func deinitEndsObservation() {
    let table = Table()
    let inMutation = DispatchSemaphore(value: 0)
    let inHandler = DispatchSemaphore(value: 0)
    let counts = Log<Int>()
    do {
      let row = Row()
      row.token = table.observe(\.name) { table, _ in
        inMutation.wait()
        inHandler.signal()
        counts.append(table.rows.count)
      }
      table.rows = [row]
    }
    let setter = DispatchGroup()
    DispatchQueue.global().async(group: setter) { table.name = "x" }
    offTask {
      // In place: the removed row's deinit invalidates its token while the handler, on the
      // setter's thread, waits for this mutation to end (it does not wait for the handler).
      table.rows.removeAll { _ in
        inMutation.signal()
        inHandler.wait()
        return true
      }
    }
    setter.wait()
    #expect(counts.all == [0])
    #expect(table.rows.isEmpty)
  }

  @Test("a set whose old value's deinit ends an observation of that key ends, after notifying")
  func setReleasesObserver() {
    let table = Table()
    let log = Log<Int>()
    do {
      let row = Row()
      row.token = table.observe(\.rows, options: [.new]) { _, change in
        log.append(change.newValue?.count ?? -1)
      }
      table.rows = [row]
    }
    // The old array holds the last reference to the row, whose token observes `rows`: it is
    // released after the delivery of this set has ended (waiting for it there would hang).
    table.rows = []
    table.rows = []
    #expect(log.all == [1, 0])
  }
}
