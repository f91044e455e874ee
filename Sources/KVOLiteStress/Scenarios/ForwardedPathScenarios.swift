import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// A key path registered on the object in the middle (`crew.name`, the crew passing it on to
/// its members with `addObserver(_:toObjectsAt:…)`) and observers registered on elements at
/// indexes, while two threads set the members' names, a third replaces the crew (the old one
/// released on whichever thread lets go of it last) and a fourth adds and removes watchers on
/// the path and on the members, from the members' array. Once the threads stop: the standing
/// observation hears the current crew's members and no one else's, only the current crew holds
/// registrations (exactly the standing one per member), no watcher was called after its
/// removal returned, and nothing is left alive.
enum ForwardedPathScenarios {
  static var all: [StressScenario] { [crewReplaced] }

  static let crewReplaced = StressScenario(
    name:
      "classic observers: a key path the object in the middle registers, and observers of elements at indexes, while it is replaced"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let ship = Ship()
      let heard = Counter()
      let standing = try ship.observe("crew.name", options: [.new]) { _ in heard.increment() }
      let late = Counter()
      let errors = Locked<[String]>([])
      let done = Atomic<Int>(0)
      race(workers: 4) { worker in
        switch worker {
        case 0, 1:
          for index in 0..<iterations {
            let crew = ship.crew
            crew.members[index % crew.members.count].name = Stamp.string(
              writer: worker, index: index)
          }
        case 2:
          for index in 0..<iterations / 8 {
            ship.crew = Crew(size: 1 + index % 3)
            spin(index % 5 * 40)
          }
          done.store(1, ordering: .releasing)
        default:
          var round = 0
          while done.load(ordering: .acquiring) == 0 || round < 64 {
            let watcher = Watcher()
            do {
              if round % 2 == 0 {
                try ship.addObserver(watcher, forKeyPath: "crew.name", options: [.new])
                spin(round % 7 * 30)
                ship.removeObserver(watcher, forKeyPath: "crew.name")
              } else {
                let members = ship.crew.members
                try members.addObserver(
                  watcher, toObjectsAt: IndexSet(members.indices), forKeyPath: "name",
                  options: [.new, .prior])
                spin(round % 7 * 30)
                try members.removeObserver(
                  watcher, fromObjectsAt: IndexSet(members.indices), forKeyPath: "name")
              }
              watcher.markRemoved()
            } catch {
              errors.withLock { $0.append("unexpected error: \(error)") }
            }
            late.add(watcher.late.count)
            round += 1
          }
        }
      }
      report.failures += errors.withLock { $0 }
      let crew = ship.crew
      report.expect("registrations on the crew", crew.registrations, crew.members.count)
      let before = heard.count
      for member in crew.members { member.name = "final" }
      report.expect("final sets heard", heard.count - before, crew.members.count)
      report.expect("calls after removeObserver returned", late.count, 0)
      standing.invalidate()
      report.expect("registrations after the end", crew.registrations, 0)
      report.count("crew.name notifications", heard.count)
    } catch {
      report.failures.append("could not observe: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
