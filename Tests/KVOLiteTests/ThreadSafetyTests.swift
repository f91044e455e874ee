import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Thread safety")
struct ThreadSafetyTests {
  static let workers = 4
  static let rounds = 2_000

  @Test("concurrent sets of one key each produce exactly one notification per observer")
  func concurrentSetsCountExactly() throws {
    let person = Person()
    let fast = Counter()
    let general = Counter()
    let priors = Counter()
    let t1 = person.observe(\.age, options: [.new]) { _, _ in fast.increment() }
    let t2 = person.observe(\.firstName, options: [.old, .new]) { _, _ in fast.increment() }
    let t3 = person.observe(\.lastName, options: [.prior, .old, .new]) { _, change in
      change.isPrior ? priors.increment() : general.increment()
    }
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds {
        person.age = round
        person.firstName = "\(worker)-\(round)"
        person.lastName = "\(round)"
      }
    }
    let total = Self.workers * Self.rounds
    #expect(fast.count == 2 * total)
    #expect(general.count == total)
    #expect(priors.count == total)
    _ = (t1, t2, t3)
  }

  @Test("without .prior, each set's old value is the value it replaced, even under concurrent sets")
  func oldValuesAreExactWithoutPrior() {
    let person = Person(firstName: "initial")
    let pairs = Locked<[(old: String, new: String)]>([])
    let token = person.observe(\.firstName, options: [.old, .new]) { _, change in
      pairs.withLock { $0.append((change.oldValue!, change.newValue!)) }
    }
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds { person.firstName = "\(worker)-\(round)" }
    }
    let all = pairs.withLock { $0 }
    let news = all.map(\.new)
    #expect(Set(news).count == Self.workers * Self.rounds)
    // The values replaced are the initial one and every value set but the last one standing.
    #expect(
      all.map(\.old).sorted() == (["initial"] + news.filter { $0 != person.firstName }).sorted())
    _ = token
  }

  @Test("with .prior, every set still gives one prior and one post notification per observer")
  func priorUnderConcurrentSets() {
    let person = Person(firstName: "initial")
    let priors = Counter()
    let posts = Counter()
    let token = person.observe(\.firstName, options: [.prior, .old, .new]) { _, change in
      change.isPrior ? priors.increment() : posts.increment()
    }
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds { person.firstName = "\(worker)-\(round)" }
    }
    #expect(priors.count == Self.workers * Self.rounds)
    #expect(posts.count == Self.workers * Self.rounds)
    _ = token
  }

  @Test("observing and cancelling while others set never disturbs a standing observer")
  func observeAndCancelWhileSetting() throws {
    let person = Person()
    let standing = Counter()
    let transient = Counter()
    let token = person.observe(\.age, options: [.old, .new]) { _, _ in standing.increment() }
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds {
        if worker % 2 == 0 {
          person.age = round
        } else {
          let options: ObservingOptions = round % 2 == 0 ? [.new] : [.prior, .old]
          let other = person.observe(\.age, options: options) { _, _ in transient.increment() }
          let chain = try? person.observe("address.street") { _ in transient.increment() }
          if round % 3 == 0 { other.invalidate() }
          _ = chain
        }
      }
    }
    #expect(standing.count == (Self.workers / 2) * Self.rounds)
    #expect(person.observationRegistrar.triggerCount == 1)
    _ = token
  }

  @Test(
    "concurrently replacing intermediates while setting leaves does not crash, deadlock or leak")
  func replaceIntermediatesWhileSetting() throws {
    let released = Counter()
    let created = Counter()
    let parcel = Parcel()
    let notifications = Counter()
    let token = parcel.observe(\.recipient.address.street, options: [.old, .new]) { _, _ in
      notifications.increment()
    }
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds / 2 {
        switch worker {
        case 0:
          created.increment()
          parcel.recipient = Person(
            address: Address(street: "r\(round)"), onDeinit: { released.increment() })
        case 1:
          parcel.recipient.address = Address(street: "a\(round)")
        case 2:
          parcel.recipient.address.street = "s\(round)"
        default:
          let chain = try? parcel.observe("recipient.address.city", options: [.prior, .new]) { _ in
          }
          parcel.recipient.address.city = "c\(round)"
          chain?.invalidate()
        }
      }
    }
    // Wired to the current objects only: one more leaf change is one more notification.
    let before = notifications.count
    parcel.recipient.address.street = "final"
    #expect(notifications.count == before + 1)
    #expect(parcel.observationRegistrar.triggerCount == 1)
    #expect(parcel.recipient.observationRegistrar.triggerCount == 1)
    #expect(parcel.recipient.address.observationRegistrar.triggerCount == 1)
    // Every replaced recipient was released (the current one is still held by the parcel).
    #expect(released.count == created.count - 1)
    _ = token
  }

  @Test("manual will/did pairs on several threads are matched per thread")
  func manualPairsPerThread() throws {
    let person = Person()
    let log = Locked<[Int: Int]>([:])
    let token = person.observe(\.manual, options: [.old, .new]) { _, change in
      log.withLock { $0[change.newValue!, default: 0] += 1 }
    }
    race(workers: Self.workers) { worker in
      for _ in 0..<Self.rounds / 4 {
        person.willChangeValue(for: \.manual)
        person.didChangeValue(for: \.manual)
      }
      _ = worker
    }
    #expect(log.withLock { $0.values.reduce(0, +) } == Self.workers * Self.rounds / 4)
    _ = token
  }

  @Test("tokens released on other threads while sets are delivered leave nothing behind")
  func tokensReleasedElsewhere() throws {
    let person = Person()
    let tokens = Locked<[ObservationToken]>([])
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds / 2 {
        if worker == 0 {
          let token = person.observe(\.age, options: [.new]) { _, _ in }
          tokens.withLock { $0.append(token) }
        } else if worker == 1 {
          _ = tokens.withLock { $0.popLast() }
        } else {
          person.age = round
        }
      }
    }
    tokens.withLock { $0.removeAll() }
    #expect(person.observationRegistrar.triggerCount == 0)
  }

  @Test("releasing an observed object while its tokens are cancelled elsewhere is safe")
  func releaseRacesInvalidate() throws {
    let released = Counter()
    for _ in 0..<Self.rounds / 10 {
      // Only the holder keeps the person alive, so worker 0 releases it.
      let holder = Locked<Person?>(Person(onDeinit: { released.increment() }))
      let tokens = try holder.withLock { person in
        [
          person!.observe(\.age) { _, _ in },
          try person!.observe("address.street") { _ in },
          person!.observe(\.firstName, options: [.prior]) { _, _ in },
        ]
      }
      race(workers: 3) { worker in
        switch worker {
        case 0: holder.withLock { $0 = nil }
        case 1: for token in tokens { token.invalidate() }
        default: for token in tokens.reversed() { token.invalidate() }
        }
      }
    }
    #expect(released.count == Self.rounds / 10)
  }

}
