import KVOLiteBridge
import KVOLiteTestSupport

/// Two threads set one `@Observed` property while two read it, for every kind of value: a heap
/// string, an array, a class reference, an optional. Without observers (the fast path) and with
/// one (the slow path). Readers check that every value they get is well-formed (a value read
/// while another thread frees it would not be); the observer checks that it gets every set of
/// every writer once, in the writer's order, with a well-formed old value.
enum ValueScenarios {
  static let writers = 2
  static let readers = 2

  static var all: [StressScenario] {
    [false, true].flatMap { observed in
      [
        scenario(
          "String", observed: observed, \.name, make: Stamp.string,
          parse: { $0.isEmpty ? (-1, -1) : Stamp.parse($0) }),
        scenario(
          "[Int]", observed: observed, \.scores, make: Stamp.array,
          parse: { $0.isEmpty ? (-1, -1) : Stamp.parse($0) }),
        scenario(
          "class reference", observed: observed, \.tag, make: { Tag(writer: $0, index: $1) },
          parse: { tag in (-1..<writers).contains(tag.writer) ? (tag.writer, tag.index) : nil }),
        optionalScenario(observed: observed),
      ]
    }
  }

  /// A scenario for the attribute at `keyPath`: writer `w`'s `i`-th set stores `make(w, i)`;
  /// `parse` recovers `(w, i)` from a value, `(-1, _)` for the initial one, `nil` if malformed.
  static func scenario<Value>(
    _ kind: String, observed: Bool, _ keyPath: ReferenceWritableKeyPath<Contact, Value> & Sendable,
    make: @escaping @Sendable (Int, Int) -> Value,
    parse: @escaping @Sendable (Value) -> (writer: Int, index: Int)?
  ) -> StressScenario {
    StressScenario(name: "values: \(kind), \(observed ? "observed" : "unobserved")") {
      iterations in
      var report = StressReport()
      let contact = Contact()
      let malformed = Counter()
      let reads = Counter()
      let sequences = SequenceChecker(sources: writers, expectedPerSource: iterations)
      let token =
        observed
        ? contact.observe(keyPath, options: [.old, .new]) { _, change in
          guard let new = change.newValue.flatMap(parse), new.writer >= 0,
            let old = change.oldValue, parse(old) != nil
          else { return malformed.increment() }
          sequences.record(source: new.writer, index: new.index)
        } : nil
      race(workers: writers + readers) { worker in
        if worker < writers {
          for index in 0..<iterations { contact[keyPath: keyPath] = make(worker, index) }
        } else {
          for _ in 0..<iterations {
            if parse(contact[keyPath: keyPath]) == nil { malformed.increment() }
            reads.increment()
          }
        }
      }
      token?.invalidate()
      report.count("reads", reads.count)
      report.expect("malformed values", malformed.count, 0)
      if observed { report.merge("notifications", sequences) }
      return report
    }
  }

  /// The optional attribute: writers alternate between a stamped string and `nil`. The observer
  /// counts every notification and checks the order of the non-`nil` ones.
  static func optionalScenario(observed: Bool) -> StressScenario {
    StressScenario(name: "values: String?, \(observed ? "observed" : "unobserved")") {
      iterations in
      var report = StressReport()
      let contact = Contact()
      let malformed = Counter()
      let notifications = Counter()
      let sequences = SequenceChecker(sources: writers)
      let token =
        observed
        ? contact.observe(\.nickname, options: [.old, .new]) { _, change in
          notifications.increment()
          guard case .some(let new) = change.newValue, case .some(let old) = change.oldValue,
            old.map({ Stamp.parse($0) != nil }) ?? true
          else { return malformed.increment() }
          guard let new else { return }
          guard let stamp = Stamp.parse(new) else { return malformed.increment() }
          sequences.record(source: stamp.writer, index: stamp.index, allowingGaps: true)
        } : nil
      race(workers: writers + readers) { worker in
        if worker < writers {
          for index in 0..<iterations {
            contact.nickname = index % 3 == 0 ? nil : Stamp.string(writer: worker, index: index)
          }
        } else {
          for _ in 0..<iterations {
            if let value = contact.nickname, Stamp.parse(value) == nil { malformed.increment() }
          }
        }
      }
      token?.invalidate()
      report.expect("malformed values", malformed.count, 0)
      if observed {
        report.merge("non-nil notifications", sequences)
        report.expect("notifications", notifications.count, writers * iterations)
      }
      return report
    }
  }
}
