import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// The model of a port: in Foundation, `files` was `@objc` but not `dynamic`, so only the
/// class's own will/did pair notified. Here the property says so where it is declared.
private final class Folder: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Folder> = [
    .derived("count", \.count, affectedBy: ["files"])
  ]
  @Observed(notifiesAutomatically: false) var files: [String] = []
  @Observed var name = ""
  var count: Int { files.count }

  /// The ported method: a manual pair around the change.
  func add(_ file: String) {
    willChangeValue(for: \.files)
    files.append(file)
    didChangeValue(for: \.files)
  }
}

/// `@Observed(notifiesAutomatically: false)`: a property notified by hand says so at its
/// declaration, as Foundation's `automaticallyNotifiesObservers(forKey:)` says it for a key.
@Suite("Manual notification declared with the property")
struct ManualAtDeclarationTests {
  @Test("a ported will/did pair around the property notifies once, not twice")
  func portedPairNotifiesOnce() {
    let folder = Folder()
    let log = Log<String>()
    let token = folder.observe(\.files, options: [.old, .new]) { _, change in
      log.append("\(change.oldValue!) -> \(change.newValue!)")
    }
    folder.add("a.txt")
    #expect(log.all == [#"[] -> ["a.txt"]"#])
    _ = token
  }

  @Test("sets, key-value coding and proxy mutations notify nobody; .initial still fires")
  func automaticNotificationIsOff() throws {
    let folder = Folder()
    let log = Log<String>()
    let typed = folder.observe(\.files, options: [.initial, .new]) { _, change in
      log.append("typed \(change.newValue!)")
    }
    let byName = try folder.observe("files", options: [.new]) { change in
      log.append("string \(change.newValue.map { "\($0!)" } ?? "-")")
    }
    let derived = try folder.observe("count") { _ in log.append("count") }
    folder.files = ["x"]
    try folder.setValue(["y"], forKey: "files")
    try folder.mutableArrayValue(forKey: "files").append("z")
    folder.mutableArrayValue(for: \.files).append("w")
    folder.name = "docs"  // Its neighbour notifies as usual.
    #expect(log.all == ["typed []"])
    #expect(folder.files == ["y", "z", "w"])
    _ = (typed, byName, derived)
  }

  @Test("the manual pair reaches every kind of observer: typed, string, derived")
  func manualPairReachesEveryone() throws {
    let folder = Folder()
    let log = Log<String>()
    let typed = folder.observe(\.files) { _, _ in log.append("typed") }
    let byName = try folder.observe("files") { _ in log.append("string") }
    let derived = folder.observe(\.count, options: [.new]) { _, change in
      log.append("count \(change.newValue!)")
    }
    folder.add("a")
    #expect(log.all == ["typed", "string", "count 1"])
    _ = (typed, byName, derived)
  }

  @Test("a property that notifies automatically still does, declared either way")
  func defaultIsAutomatic() {
    final class Note: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed(notifiesAutomatically: true) var text = ""
    }
    let note = Note()
    let counter = Counter()
    let token = note.observe(\.text) { _, _ in counter.increment() }
    note.text = "a"
    #expect(counter.count == 1)
    _ = token
  }
}
