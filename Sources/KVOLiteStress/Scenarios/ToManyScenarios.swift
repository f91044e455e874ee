import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// A to-many relationship mutated through its proxies by four threads at once (two appending,
/// one through the typed proxy, one through `mutableArrayValue(forKey:)`'s; one removing the
/// first element, up to three times as often; one replacing it through
/// `mutableArrayValue(forKeyPath:)`'s), observed exactly (`notes`) and through an operator
/// (`notes.@count`). The exact observer's insertions minus removals must equal the
/// final count; each appender's elements arrive in its order; the `@count` observer's last
/// value is the final count.
enum ToManyScenarios {
  static var all: [StressScenario] { [proxyMutations] }

  static let proxyMutations = StressScenario(name: "to-many: concurrent proxy mutations") {
    iterations in
    var report = StressReport()
    let contact = Contact()
    let inserted = Counter()
    let removed = Counter()
    let replaced = Counter()
    let malformed = Counter()
    let lastCount = Locked<Int>(-1)
    let appends = SequenceChecker(sources: 2, expectedPerSource: iterations)
    do {
      let notes = contact.mutableArrayValue(for: \.notes)
      let exact = try contact.observe("notes", options: [.old, .new]) { change in
        let elements = (change.newValue ?? nil) as? [String] ?? []
        let olds = (change.oldValue ?? nil) as? [String] ?? []
        switch change.kind {
        case .insertion:
          inserted.increment()
          guard elements.count == 1, let stamp = Stamp.parse(elements[0]) else {
            return malformed.increment()
          }
          appends.record(source: stamp.writer, index: stamp.index)
        case .removal:
          removed.increment()
          if olds.count != 1 || change.indexes != IndexSet(integer: 0) { malformed.increment() }
        case .replacement:
          replaced.increment()
          if olds.count != 1 || elements.count != 1 { malformed.increment() }
        case .setting:
          malformed.increment()
        }
      }
      let count = try contact.observe("notes.@count", options: [.new]) { change in
        guard let value = (change.newValue ?? nil) as? Int else { return malformed.increment() }
        lastCount.withLock { $0 = value }
      }
      race(workers: 4) { worker in
        // A proxy per thread: proxies are meant to be made, used and dropped.
        let notes = contact.mutableArrayValue(for: \.notes)
        let byKey = try? contact.mutableArrayValue(forKey: "notes")
        let byPath = try? contact.mutableArrayValue(forKeyPath: "notes")
        for index in 0..<iterations {
          switch worker {
          case 0: notes.append(Stamp.string(writer: worker, index: index))
          case 1:
            do {
              try byKey?.append(Stamp.string(writer: worker, index: index))
            } catch {
              malformed.increment()
            }
          case 2:
            // Up to three removals for two appends keep the array short (a long one would make
            // the run quadratic, every removal shifting it), and removals often find it empty.
            for _ in 0..<3 { _ = try? notes.remove(at: 0) }
          default: try? byPath?.replace(at: 0, with: Stamp.string(writer: 7, index: index))
          }
        }
      }
      let final = notes.count
      report.count("insertions", inserted.count)
      report.count("removals", removed.count)
      report.count("replacements", replaced.count)
      report.merge("appends", appends)
      report.expect("malformed changes", malformed.count, 0)
      report.expect("insertions - removals", inserted.count - removed.count, final)
      notes.append(Stamp.string(writer: 8, index: 0))
      report.expect("@count after one more append", lastCount.withLock { $0 }, final + 1)
      exact.invalidate()
      count.invalidate()
    } catch {
      report.failures.append("could not observe: \(error)")
    }
    return report
  }
}
