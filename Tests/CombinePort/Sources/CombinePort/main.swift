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
// written for that release do): each call compiles, with both visible, and runs one of the two.
var backfilled: [String] = []
let optional = Optional(1).publisher.sink { backfilled.append("optional \($0)") }
let outer = PassthroughSubject<PassthroughSubject<Int, BackfillError>, Never>()
let inner = PassthroughSubject<Int, BackfillError>()
let switched = outer.switchToLatest().sink(
  receiveCompletion: { _ in }, receiveValue: { backfilled.append("switched \($0)") })
outer.send(inner)
inner.send(2)
let neverOuter = PassthroughSubject<Just<Int>, Never>()
let neverSwitched = neverOuter.switchToLatest().sink { backfilled.append("never switched \($0)") }
neverOuter.send(Just(6))
let flat = Just(3).flatMap { Fail<Int, BackfillError>(error: BackfillError()).prepend($0) }
  .sink(
    receiveCompletion: { backfilled.append("flat \($0)") },
    receiveValue: { backfilled.append("flat \($0)") })
for await value in [4].publisher.values { backfilled.append("values \(value)") }
backfilled.append("future \(await Future<Int, Never> { $0(.success(5)) }.value)")
let renamed = Settings()
Just("assigned").assign(to: &renamed.$name)
withExtendedLifetime((optional, switched, neverSwitched, flat)) {}
let expected = [
  "optional 1", "switched 2", "never switched 6", "flat 3",
  "flat failure(MyLibrary.BackfillError())",
  "values 4", "future 5",
]
let inLibrary = await usesOfBackfills()
let libraryExpected = [
  "optional 1", "switched 2", "flat 3", "flat failure(MyLibrary.BackfillError())", "values 4",
  "future 5",
]
// assign(to:) ran KVOLite's (the property holds the value) or the backfill (which counted).
let assigned = renamed.name == "assigned" || BackfillCalls.counts["assign(to:)"] == 1
guard backfilled == expected, inLibrary == libraryExpected, assigned else {
  print(
    "CombinePort: backfills: \(backfilled) \(inLibrary) \(renamed.name) \(BackfillCalls.counts)")
  exit(1)
}
print("CombinePort: backfilled members ran: \(BackfillCalls.counts.sorted { $0.key < $1.key })")
let booksURL = URL(string: "http://127.0.0.1/books.json")!
guard requestedURL(booksURL) == booksURL else {
  print("CombinePort: dataTaskPublisher requested \(String(describing: requestedURL(booksURL)))")
  exit(1)
}
withExtendedLifetime(books(at: booksURL)) {}
print("CombinePort: code written for Combine runs unchanged")
