// Commits a documented misuse of each module, named by the first argument, and so stops the
// program: Scripts/check-release-diagnostics runs each one from a release build and checks
// that its message reached standard error (a precondition's message is dropped in -O builds;
// the library's checks keep theirs). `--list` prints the names; `--expect NAME` the message.
import Foundation
import KVOLiteBridge
import Observation
import PackageModel

/// A model with a plain property and a mistyped derived key.
final class Sample: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var members = 0
  var plain = ""
}

/// A model whose derived key is affected by a key it does not have.
final class Mistyped: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Mistyped> = [
    .derived("total", \.total, affectedBy: ["membrs"])
  ]
  @Observed var members = 0
  var total: Int { members }
}

/// A root class that is not `Observable`, and a subclass that adds it below: never tracked.
class PlainRoot: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
}

final class ObservableBelowRoot: PlainRoot, Observable {}

/// Each misuse: what it does, and the message it must stop with.
let misuses: [(name: String, message: String, commit: () -> Void)] = [
  (
    "observe-plain-property",
    "KVOLite: cannot observe Sample.plain: it is not an @Observed property, so it never notifies"
      + " (mark it @Observed)",
    { _ = Sample().observe(\.plain) { _, _ in } }
  ),
  (
    "affected-by-unknown-key",
    "KVOLite: Mistyped.observableKeys declares the derived key \"total\" affected by \"membrs\","
      + " but Mistyped has no key \"membrs\"; did you mean \"members\"?",
    { _ = try? Mistyped().value(forKey: "members") }
  ),
  (
    "observable-below-root",
    "KVOLite: ObservableBelowRoot conforms to Observable, but the class that adopts"
      + " KeyValueObservable above it does not, so Swift Observation would never see its"
      + " properties change. Declare the Observable conformance on the class that adopts"
      + " KeyValueObservable.",
    { _ = ObservableBelowRoot().name }
  ),
  (
    "negative-demand",
    "demand cannot be negative",
    { _ = Subscribers.Demand.max(-1) }
  ),
  (
    "request-none-from-future",
    "a subscriber must request at least one value, not max(0)",
    {
      final class Requester: Subscriber {
        typealias Input = Int
        typealias Failure = Never
        func receive(subscription: any Subscription) { subscription.request(.none) }
        func receive(_ input: Int) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<Never>) {}
      }
      Future<Int, Never> { $0(.success(1)) }.subscribe(Requester())
    }
  ),
  (
    "history-without-room",
    "ChangeHistory: the limit must be at least 1, not 0",
    { _ = ChangeHistory(root: Package(), limit: 0) }
  ),
]

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.dropFirst().first) {
case ("--list", nil):
  for misuse in misuses { print(misuse.name) }
case ("--expect", let name?):
  guard let misuse = misuses.first(where: { $0.name == name }) else { exit(64) }
  print(misuse.message)
case (let name?, nil):
  guard let misuse = misuses.first(where: { $0.name == name }) else { exit(64) }
  misuse.commit()
  print("\(name) did not stop the program")
  exit(1)
default:
  FileHandle.standardError.write(
    Data("usage: DiagnosticsProbe --list | --expect NAME | NAME\n".utf8))
  exit(64)
}
