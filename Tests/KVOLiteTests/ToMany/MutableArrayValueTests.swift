import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

private final class Playlist: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
  @Observed var tags: [String] = []
  @Observed var tracks: [Track] = []
  @Observed var next: Playlist?
}

private final class Track: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var title: String
  init(_ title: String) { self.title = title }
}

/// Records every change of a key as text: kind, indexes, old, new.
private func record(_ playlist: Playlist, _ keyPath: String) throws -> (
  ObservationToken, Log<String>
) {
  let log = Log<String>()
  let token = try playlist.observe(keyPath, options: [.old, .new]) { change in
    var line = "\(change.kind) \(change.indexes.map { Array($0) } ?? [])"
    if let old = change.oldValue { line += " old \(old.map { "\($0)" } ?? "nil")" }
    if let new = change.newValue { line += " new \(new.map { "\($0)" } ?? "nil")" }
    log.append(line)
  }
  return (token, log)
}

/// Foundation's `mutableArrayValue(forKey:)` and `(forKeyPath:)`, over arrays of objects and of
/// values, and the typed `mutableArrayValue(for:)` over arrays of values.
@Suite("Mutable array proxies by name, and over arrays of values")
struct MutableArrayValueTests {
  @Test("mutableArrayValue(forKey:) over an array of values notifies each mutation's indexes")
  func valuesByName() throws {
    let playlist = Playlist()
    let (token, log) = try record(playlist, "tags")
    let tags = try playlist.mutableArrayValue(forKey: "tags")
    try tags.append("rock")
    try tags.insert("live", at: 0)
    try tags.replace(at: 1, with: "pop")
    try tags.remove(at: 0)
    #expect(tags.count == 1)
    #expect(tags.elements as? [String] == ["pop"])
    try tags.removeAll()
    #expect(playlist.tags == [])
    #expect(
      log.all == [
        #"insertion [0] new ["rock"]"#, #"insertion [0] new ["live"]"#,
        #"replacement [1] old ["rock"] new ["pop"]"#, #"removal [0] old ["live"]"#,
        #"removal [0] old ["pop"]"#,
      ])
    _ = token
  }

  @Test("mutableArrayValue(forKey:) over objects; a wrong element or index changes nothing")
  func objectsByName() throws {
    let playlist = Playlist()
    let (token, log) = try record(playlist, "tracks.@count")
    let tracks = try playlist.mutableArrayValue(forKey: "tracks")
    try tracks.append(contentsOf: [Track("a"), Track("b")])
    #expect(throws: KeyValueError.typeMismatch(path: "tracks", expected: "Track", actual: "String"))
    {
      try tracks.append("c")
    }
    #expect(throws: KeyValueError.indexOutOfRange(index: 5, count: 2, path: "tracks")) {
      try tracks.remove(at: 5)
    }
    #expect(playlist.tracks.map(\.title) == ["a", "b"])
    #expect(log.all == ["setting [] old 0 new 2"])
    _ = token
  }

  @Test("mutableArrayValue(forKeyPath:) mutates the array of the object the path reaches")
  func byKeyPath() throws {
    let playlist = Playlist()
    playlist.next = Playlist()
    let tags = try playlist.mutableArrayValue(forKeyPath: "next.tags")
    try tags.append("encore")
    #expect(playlist.next?.tags == ["encore"])
    #expect(
      throws: KeyValueError.indexOutOfRange(index: 3, count: 1, path: "next.tags")
    ) { try tags.remove(at: 3) }
  }

  @Test("an unknown key, a key that is not an array, a nil relationship: errors, at once")
  func errors() {
    let playlist = Playlist()
    #expect(
      throws: KeyValueError.unknownKey(key: "tag", type: "Playlist", path: "", suggestion: "tags")
    ) { try playlist.mutableArrayValue(forKey: "tag") }
    #expect(
      throws: KeyValueError.typeMismatch(path: "name", expected: "an array", actual: "an attribute")
    ) { try playlist.mutableArrayValue(forKey: "name") }
    #expect(throws: KeyValueError.nilIntermediate(path: "next.tags", key: "next")) {
      try playlist.mutableArrayValue(forKeyPath: "next.tags")
    }
  }

  @Test("mutableArrayValue(for:) over an array of values is Foundation's proxy, typed")
  func typedOverValues() throws {
    let playlist = Playlist()
    let log = Log<String>()
    let token = playlist.observe(\.tags, options: [.new]) { _, change in
      log.append("\(change.kind) \(Array(change.indexes ?? [])) \(change.newValue ?? [])")
    }
    let tags = playlist.mutableArrayValue(for: \.tags)
    tags.append("a")
    try tags.insert("b", at: 0)
    #expect(playlist.tags == ["b", "a"])
    #expect(log.all == [#"insertion [0] ["a"]"#, #"insertion [0] ["b"]"#])
    _ = token
  }

  @Test("the proxy is live: it reads and mutates the array as it is now, as Foundation's does")
  func live() throws {
    let playlist = Playlist()
    let tags = try playlist.mutableArrayValue(forKey: "tags")
    playlist.tags = ["a", "b"]
    #expect(tags.count == 2)
    try tags.append("c")
    playlist.tags.removeFirst()
    try tags.remove(at: 0)
    #expect(playlist.tags == ["c"])
    #expect(tags.elements as? [String] == ["c"])
  }

  @Test("appends from several threads all land, each at the end as it was")
  func concurrentAppends() {
    let playlist = Playlist()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      let tags = try? playlist.mutableArrayValue(forKey: "tags")
      for index in 0..<250 { try? tags?.append("\(thread).\(index)") }
    }
    #expect(playlist.tags.count == 1000)
    #expect(Set(playlist.tags).count == 1000)
  }
}
