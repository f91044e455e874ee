import KVOLite
import KVOLiteTestSupport
import Testing

/// A room whose `occupant` a getter further down the path may replace.
private final class Room: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Room> = [.toOne("occupant", \.occupant)]
  @Observed var occupant: Occupant

  init() {
    occupant = Occupant(generation: 0)
    occupant.room = self
  }
}

/// An occupant with a computed, manually notified key whose getter moves a new occupant into
/// the room the first time it runs: the getter changes the relationship above it.
private final class Occupant: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Occupant> = [
    .attribute("restless", \.restless, notifiesAutomatically: false)
  ]
  let generation: Int
  weak var room: Room?

  init(generation: Int) { self.generation = generation }

  var restless: Int {
    if generation == 0, let room {
      let next = Occupant(generation: 1)
      next.room = room
      room.occupant = next
    }
    return generation
  }
}

@Suite("Getters that change what is observed")
struct ReentrantGetterTests {
  @Test("a getter that replaces the relationship above it while a path is wired does not deadlock")
  func getterReplacesRelationshipWhileWiring() throws {
    let room = Room()
    let log = Log<String>()
    let token = try room.observe("occupant.restless", options: [.initial, .new]) { change in
      log.append("\(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
    }
    // The wiring ran the getter, which moved generation 1 in: the path notified that change,
    // and the initial value is read through the new occupant.
    #expect(room.occupant.generation == 1)
    #expect(log.all.last == "1")
    // The observation follows the occupant now in the room.
    let before = log.all.count
    room.occupant = Occupant(generation: 2)
    #expect(log.all.count == before + 1)
    #expect(log.all.last == "2")
    token.invalidate()
  }
}
