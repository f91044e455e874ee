import Combine
import Foundation
import MyLibrary

// Code written for Apple's Combine and Foundation, compiled unchanged where KVOLite provides
// the module named Combine; it checks what it sees and exits non-zero on a difference.

final class Settings: ObservableObject {
  @Published var name = "a"
}

let relay = Relay(1)
let collector = Collector<Int>()
relay.map { $0 * 10 }.subscribe(collector)
relay.accept(2)

let settings = Settings()
var changes = 0
let willChange: AnyCancellable = settings.objectWillChange.sink { changes += 1 }
var names: [String] = []
let nameCancellable: Combine.AnyCancellable = settings.$name.sink { names.append($0) }
settings.name = "b"

var notes = 0
let notification = Notification.Name("CombinePort")
let observer = NotificationCenter.default.publisher(for: notification).sink { _ in notes += 1 }
NotificationCenter.default.post(name: notification, object: nil)

let ticks = Just(1).delay(for: .milliseconds(1), scheduler: DispatchQueue.main)
let published = [1, 2, 3].publisher.collect().sink { print("collected \($0)") }

guard collector.values == [10, 20], changes == 1, names == ["a", "b"], notes == 1 else {
  print("CombinePort: unexpected: \(collector.values) \(changes) \(names) \(notes)")
  exit(1)
}
withExtendedLifetime((willChange, nameCancellable, observer, ticks, published)) {}

// Members Apple added after Combine's first release, which MyLibrary backfills (as libraries
// written for that release do): with both visible, each call compiles and runs the library's,
// since KVOLite's are disfavored overloads (Apple's would be unavailable where the backfill is
// not obsoleted). Each call is checked for whose member it ran, not only for what it gave.

/// Runs `call` and names whose `member` it ran: MyLibrary's backfill, which counts its calls,
/// or Combine's (KVOLite's).
func implementation(of member: String, _ call: () async -> Void) async -> String {
  let before = BackfillCalls.counts[member, default: 0]
  await call()
  let after = BackfillCalls.counts[member, default: 0]
  return after == before + 1 ? "MyLibrary" : after == before ? "Combine" : "\(after - before) calls"
}

var backfilled: [String] = []
var kept: [AnyCancellable] = []
var ran: [String: String] = [:]
ran["Optional(1).publisher"] = await implementation(of: "Optional.publisher") {
  kept.append(Optional(1).publisher.sink { backfilled.append("optional \($0)") })
}
let outer = PassthroughSubject<PassthroughSubject<Int, BackfillError>, Never>()
let inner = PassthroughSubject<Int, BackfillError>()
ran["switchToLatest() of failing publishers"] = await implementation(of: "switchToLatest") {
  kept.append(
    outer.switchToLatest().sink(
      receiveCompletion: { _ in }, receiveValue: { backfilled.append("switched \($0)") }))
}
outer.send(inner)
inner.send(2)
let neverOuter = PassthroughSubject<Just<Int>, Never>()
ran["switchToLatest() of publishers that never fail"] = await implementation(
  of: "switchToLatest"
) {
  kept.append(neverOuter.switchToLatest().sink { backfilled.append("never switched \($0)") })
}
neverOuter.send(Just(6))
ran["flatMap(maxPublishers:_:)"] = await implementation(of: "flatMap") {
  kept.append(
    Just(3).flatMap { Fail<Int, BackfillError>(error: BackfillError()).prepend($0) }
      .sink(
        receiveCompletion: { backfilled.append("flat \($0)") },
        receiveValue: { backfilled.append("flat \($0)") }))
}
ran["values"] = await implementation(of: "values") {
  for await value in [4].publisher.values { backfilled.append("values \(value)") }
}
ran["Future.value"] = await implementation(of: "Future.value") {
  backfilled.append("future \(await Future<Int, Never> { $0(.success(5)) }.value)")
}
let renamed = Settings()
ran["assign(to:)"] = await implementation(of: "assign(to:)") {
  Just("assigned").assign(to: &renamed.$name)
}
#if os(Linux)
  ran["DispatchTime.distance(to:)"] = await implementation(of: "DispatchTime.distance(to:)") {
    let start = DispatchTime(uptimeNanoseconds: 1_000)
    backfilled.append("distance \(start.distance(to: start + .nanoseconds(7)))")
  }
#endif
withExtendedLifetime(kept) {}
let expected = [
  "optional 1", "switched 2", "never switched 6", "flat 3",
  "flat failure(MyLibrary.BackfillError())",
  "values 4", "future 5",
]
var expectedRan = [
  "Optional(1).publisher": "MyLibrary", "switchToLatest() of failing publishers": "MyLibrary",
  "switchToLatest() of publishers that never fail": "MyLibrary",
  "flatMap(maxPublishers:_:)": "MyLibrary", "values": "MyLibrary", "Future.value": "MyLibrary",
  "assign(to:)": "MyLibrary",
]
var expectedBackfilled = expected
#if os(Linux)
  expectedRan["DispatchTime.distance(to:)"] = "MyLibrary"
  expectedBackfilled.append("distance nanoseconds(7)")
#endif
// Inside the library that declares them, its own run too: each is counted once more.
let countsBefore = BackfillCalls.counts
let inLibrary = await usesOfBackfills()
let libraryExpected = [
  "optional 1", "switched 2", "flat 3", "flat failure(MyLibrary.BackfillError())", "values 4",
  "future 5",
]
var countedInLibrary: [String: Int] = [:]
for (member, count) in BackfillCalls.counts where count != countsBefore[member] {
  countedInLibrary[member] = count - countsBefore[member, default: 0]
}
let libraryRan = [
  "Optional.publisher": 1, "switchToLatest": 1, "flatMap": 1, "values": 1, "Future.value": 1,
]
// The backfill of assign(to:) only counts: the property keeps its value.
guard backfilled == expectedBackfilled, ran == expectedRan, inLibrary == libraryExpected,
  countedInLibrary == libraryRan, renamed.name == "a"
else {
  print(
    "CombinePort: backfills: \(backfilled) \(ran.sorted { $0.key < $1.key }) \(inLibrary) "
      + "\(countedInLibrary) \(renamed.name)")
  exit(1)
}
print("CombinePort: each backfilled member ran the library's: \(ran.keys.sorted())")
let booksURL = URL(string: "http://127.0.0.1/books.json")!
guard requestedURL(booksURL) == booksURL else {
  print("CombinePort: dataTaskPublisher requested \(String(describing: requestedURL(booksURL)))")
  exit(1)
}
withExtendedLifetime(books(at: booksURL)) {}
print("CombinePort: code written for Combine runs unchanged")
