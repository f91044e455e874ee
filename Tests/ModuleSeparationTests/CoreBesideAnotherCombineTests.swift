import CombineStandIn
import KVOLite
import Testing

/// A model and a view model written as an app that uses another Combine implementation (the
/// stand-in) and KVOLite's core together would write them: the Combine names are used
/// unqualified. This file compiles only if KVOLite's core declares none of them, so that
/// `import KVOLite` can sit next to `import Combine` (or OpenCombine) without ambiguity.
final class Note: KeyValueObservable, ObservableObject, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Note> = [.attribute("text", \.text)]
  @Observed var text = ""
  @Published var title = ""
}

struct Titles: Publisher {
  typealias Output = String
}

@Suite("KVOLite's core beside another Combine implementation")
struct CoreBesideAnotherCombineTests {
  @Test("Publisher, AnyCancellable, ObservableObject and Published are the other module's")
  func namesAreNotAmbiguous() {
    let note = Note()
    var seen: [String] = []
    let token = note.observe(\.text, options: [.new]) { _, change in seen.append(change.newValue!) }
    note.text = "hello"
    note.title = "unrelated"
    var cancelled = false
    let cancellable = AnyCancellable { cancelled = true }
    cancellable.cancel()
    #expect(seen == ["hello"])
    #expect(cancelled)
    #expect(Titles.Output.self == String.self)
    token.invalidate()
  }
}
