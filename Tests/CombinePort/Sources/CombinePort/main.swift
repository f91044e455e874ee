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
print("CombinePort: code written for Combine runs unchanged")
