#if DEBUG
  import KVOLite
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// Every interleaving of the callers of an observation that follows elements (the shipped
  /// `SerialObservation`: its queue, its one taker, its windows, its end), run one thread at a
  /// time by ``ThreadScheduler``: the handler never runs on two threads at once, the values it
  /// was told of are the model's once the changes are done, and nothing is called after
  /// `invalidate()` returned.
  @Suite("Element observation schedules")
  struct SerialScheduleTests {
    final class World: @unchecked Sendable {
      let shelf: Shelf
      let books: [Book]
      let spare: Book
      var token: ObservationToken?
      /// The pages of every book, rebuilt from the changes delivered.
      let replay: ToManyReplay<Int>
      let inHandler = Atomic<Int>(0)
      let overlapped = Atomic<Bool>(false)
      let returned = Atomic<Bool>(false)
      let late = Atomic<Int>(0)

      init() {
        shelf = ThreadScheduler.distinctLocks(1) { Shelf() }[0]
        books = ThreadScheduler.distinctLocks(2, others: [shelf]) { Book(pages: 1) }
        spare = ThreadScheduler.distinctLocks(1, others: [shelf] + books) { Book(pages: 5) }[0]
        shelf.books = books
        replay = ToManyReplay(shelf.books.map(\.pages))
        token = try! shelf.observe("books.pages", options: [.old, .new]) { [unowned self] change in
          if returned.load(ordering: .relaxed) { late.add(1, ordering: .relaxed) }
          if inHandler.add(1, ordering: .relaxed).newValue > 1 {
            overlapped.store(true, ordering: .relaxed)
          }
          replay.apply(change)
          inHandler.subtract(1, ordering: .relaxed)
        }
      }

      /// What is wrong at the end, if anything.
      var atEnd: String? {
        if overlapped.load(ordering: .relaxed) { return "the handler ran on two threads at once" }
        if late.load(ordering: .relaxed) > 0 { return "a handler call after invalidate() returned" }
        if let problem = replay.problems.first { return problem }
        guard returned.load(ordering: .relaxed) || replay.elements == shelf.books.map(\.pages)
        else { return "told \(replay.elements), the model has \(shelf.books.map(\.pages))" }
        return nil
      }
    }

    @Test("an element's key and the relationship changed at once: told the model, one at a time")
    func elementAndRelationship() {
      let report = ThreadScheduler.explore(
        stepsArePoints: false, preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (
            world,
            [
              .init("pages") { world.books[1].pages = 2 },
              .init("insert") { world.shelf.books.insert(world.spare, at: 0) },
            ]
          )
        },
        atEnd: { $0.atEnd })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 299)
    }

    @Test("the same, and an invalidation: nothing after invalidate() returns")
    func withInvalidation() {
      let report = ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (
            world,
            [
              .init("pages") { world.books[1].pages = 2 },
              .init("insert") { world.shelf.books.insert(world.spare, at: 0) },
              .init("invalidate") {
                world.token?.invalidate()
                world.returned.store(true, ordering: .relaxed)
              },
            ]
          )
        },
        atEnd: { $0.atEnd })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 5148)
    }
  }
#endif
