import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Chains under concurrent change: two threads set the leaf of `contact.address.street` while
/// two replace the intermediates, with a typed chain observer, a string one and a derived key
/// over the chain. Every value delivered must be well-formed; once the threads stop, one more
/// set gives each observer exactly one notification with the right old and new values (the
/// observation ended wired to the current chain); and when everything is released, nothing
/// is left alive: no replaced intermediate, and no observation (each handler captures a
/// counted object, which a leaked observation or link would keep).
enum ChainScenarios {
  static var all: [StressScenario] { [replacingIntermediates] }

  static let replacingIntermediates = StressScenario(
    name: "chains: setting the leaf while replacing intermediates"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let book = AddressBook()
      let malformed = Counter()
      let typedCount = Counter()
      let stringCount = Counter()
      let derivedCount = Counter()
      let lastTyped = Locked<(old: String?, new: String?)>((nil, nil))
      let lastString = Locked<(old: String?, new: String?)>((nil, nil))
      func wellFormed(_ value: String?) -> Bool {
        value.map { $0.isEmpty || Stamp.parse($0) != nil } ?? false
      }
      let captured = Tag(writer: -1, index: -1)
      let typed = book.observe(\.contact.address.street, options: [.old, .new]) { _, change in
        withExtendedLifetime(captured) {}
        typedCount.increment()
        if !wellFormed(change.oldValue) || !wellFormed(change.newValue) { malformed.increment() }
        lastTyped.withLock { $0 = (change.oldValue, change.newValue) }
      }
      let string = try book.observe("contact.address.street", options: [.old, .new, .prior]) {
        change in
        withExtendedLifetime(captured) {}
        stringCount.increment()
        let old = change.oldValue.flatMap { $0 as? String }
        let new = change.newValue.flatMap { $0 as? String }
        if !wellFormed(old) || (!change.isPrior && !wellFormed(new)) { malformed.increment() }
        if !change.isPrior { lastString.withLock { $0 = (old, new) } }
      }
      let derived = try book.observe("contact.label", options: [.new]) { _ in
        withExtendedLifetime(captured) {}
        derivedCount.increment()
      }
      race(workers: 4) { worker in
        for index in 0..<iterations {
          switch worker {
          case 0, 1: book.contact.address.street = Stamp.string(writer: worker, index: index)
          case 2:
            if index % 4 == 0 { book.contact.address = Address(street: "") }
          default:
            if index % 16 == 0 { book.contact = Contact() }
          }
        }
      }
      report.count("typed chain notifications", typedCount.count)
      report.count("string chain notifications", stringCount.count)
      report.count("derived notifications", derivedCount.count)
      report.expect("malformed values", malformed.count, 0)

      // Quiet now: one set must reach every observation once, with exact values.
      let before = (typedCount.count, stringCount.count, derivedCount.count)
      let old = book.contact.address.street
      let final = Stamp.string(writer: 9, index: iterations)
      book.contact.address.street = final
      report.expect("typed notifications for one set", typedCount.count - before.0, 1)
      report.expect(
        "string notifications for one set (prior and post)", stringCount.count - before.1, 2)
      report.expect("derived notifications for one set", derivedCount.count - before.2, 1)
      report.check("typed chain delivered old and new", lastTyped.withLock { $0 == (old, final) })
      report.check("string chain delivered old and new", lastString.withLock { $0 == (old, final) })
      typed.invalidate()
      string.invalidate()
      derived.invalidate()
    } catch {
      report.failures.append("could not observe: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
