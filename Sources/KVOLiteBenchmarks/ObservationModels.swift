import Observation

/// Swift Observation's contender: an `@Observable` model.
@Observable final class ObservationModel {
  var value = 0
  var other = 0
}

@Observable final class ObservationAddress {
  var street = ""
}

@Observable final class ObservationPerson {
  var postalAddress = ObservationAddress()
}

@Observable final class ObservationPackage {
  var recipient = ObservationPerson()
}

/// A continuous observer built on `withObservationTracking`, which is one-shot: it re-arms
/// itself from `onChange` after every change, as continuous observation requires.
final class Rearming: @unchecked Sendable {
  private let read: () -> Int
  private let sink: Sink

  init(sink: Sink, read: @escaping () -> Int) {
    self.read = read
    self.sink = sink
    arm()
  }

  private func arm() {
    withObservationTracking {
      sink.consume(read())
    } onChange: { [weak self] in
      self?.arm()
    }
  }
}

@Observable final class ObservationCart {
  var contents: [Int] = []
  var firstName = ""
  var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}
