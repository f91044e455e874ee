import Combine
import Foundation

// Code written for Apple's Combine that loads no URL: a subject, operators and Foundation's
// NotificationCenter publisher. Prints what it received, for the check to compare.

let subject = PassthroughSubject<Int, Never>()
var received: [String] = []
let values = subject.map { $0 * 10 }.filter { $0 > 10 }.sink { received.append("value \($0)") }
let name = Notification.Name("StaticLink")
let notes = NotificationCenter.default.publisher(for: name).sink {
  received.append("\($0.name.rawValue)")
}
subject.send(1)
subject.send(2)
NotificationCenter.default.post(name: name, object: nil)
print(received.joined(separator: ", "))
withExtendedLifetime((values, notes)) {}
