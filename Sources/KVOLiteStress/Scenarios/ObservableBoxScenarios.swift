import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// ``ObservableBox``'s `value` set from three threads (two through the property, one by
/// key-value coding), observed every way at once: by key path with prior, old and new values,
/// through `$value`, through `objectWillChange` and through `publisher(for: \.value)`. A fourth
/// thread adds observers of each kind and ends them: by `invalidate()` or `cancel()`, by
/// releasing them, or from inside their own delivery; and observes boxes of its own, whose
/// observations the first thread cancels while the fourth sets the boxes and lets go of them.
///
/// Every set reaches every standing observer once: `objectWillChange` once, `$value` with the
/// value, the key-path observer with one prior and one post notification carrying the value
/// the set stored, each writer's values in its order. A key-path observer is never called after
/// its `invalidate()` returned. Once the threads stop, only the standing observations are left,
/// and when everything is released, nothing is left alive (the box included).
enum ObservableBoxScenarios {
  static var all: [StressScenario] { [setFromThreads] }

  static let writers = 3

  static let setFromThreads = StressScenario(
    name: "ObservableBox: value set from threads, observed by key path, $value and objectWillChange"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    weak var released: ObservableBox<String>?
    do {
      let box = ObservableBox("")
      released = box
      let malformed = Counter()
      let priors = Counter()
      let willChanges = Counter()
      let posts = SequenceChecker(sources: writers, expectedPerSource: iterations)
      let published = SequenceChecker(sources: writers, expectedPerSource: iterations)
      let publisher = SequenceChecker(sources: writers, expectedPerSource: iterations)
      let transientCalls = Counter()
      let late = Counter()
      let captured = Tag(writer: -1, index: -1)
      /// Records a value in `checker`; the initial empty value is skipped.
      func record(_ value: String?, _ checker: SequenceChecker) {
        guard let value else { return malformed.increment() }
        if value.isEmpty { return }
        guard let stamp = Stamp.parse(value) else { return malformed.increment() }
        checker.record(source: stamp.writer, index: stamp.index)
      }
      let keyPath = box.observe(\.value, options: [.prior, .old, .new]) { _, change in
        withExtendedLifetime(captured) {}
        if change.oldValue.map({ $0.isEmpty || Stamp.parse($0) != nil }) != true {
          malformed.increment()
        }
        if change.isPrior { return priors.increment() }
        record(change.newValue, posts)
      }
      let standing: [AnyCancellable] = [
        box.$value.sink { value in
          withExtendedLifetime(captured) {}
          record(value, published)
        },
        box.objectWillChange.sink { _ in willChanges.increment() },
        box.publisher(for: \.value).sink { value in record(value, publisher) },
      ]
      let registrations = box.observationRegistrar.triggerCount

      let handed = Locked<[any Cancellable]>([])
      race(workers: writers + 1) { worker in
        guard worker < writers else {
          for round in 0..<iterations / 8 {
            if round % 8 == 7 {
              observeATemporaryBox(round, handed)
            } else {
              observeForAMoment(box, round, transient: transientCalls, late)
            }
          }
          return
        }
        for index in 0..<iterations {
          let stamp = Stamp.string(writer: worker, index: index)
          if worker == 2 {
            do {
              try box.setValue(stamp, forKeyPath: "value")
            } catch {
              malformed.increment()
            }
          } else {
            box.value = stamp
          }
          if worker == 0, index % 64 == 0 { cancel(handed) }
        }
      }
      cancel(handed)
      report.expect("objectWillChange", willChanges.count, writers * iterations)
      report.expect("prior notifications", priors.count, writers * iterations)
      report.merge("post notifications", posts)
      report.merge("$value", published)
      report.merge("publisher(for: \\.value)", publisher)
      report.count("transient notifications", transientCalls.count)
      report.expect("malformed values", malformed.count, 0)
      report.expect("calls after invalidate() returned", late.count, 0)
      report.expect(
        "observations left besides the standing ones", box.observationRegistrar.triggerCount,
        registrations)
      keyPath.invalidate()
      for cancellable in standing { cancellable.cancel() }
      report.expect("observations left", box.observationRegistrar.triggerCount, 0)
    }
    report.check("the box was released", released == nil)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// Cancels what was handed over, and lets go of it.
  static func cancel(_ handed: Locked<[any Cancellable]>) {
    let cancellables = handed.withLock { cancellables in
      defer { cancellables = [] }
      return cancellables
    }
    for cancellable in cancellables { cancellable.cancel() }
  }

  /// One round in eight of the fourth thread: a box of its own, observed every way, whose
  /// observations the first thread cancels while this one sets the box and lets go of it: the
  /// cancellations race the box's deinit. The box holds a counted value, so a box left alive
  /// shows.
  static func observeATemporaryBox(_ round: Int, _ handed: Locked<[any Cancellable]>) {
    let temporary = ObservableBox(Tag(writer: 3, index: round))
    do {
      let made: [any Cancellable] = [
        temporary.observe(\.value, options: [.prior, .old, .new]) { _, _ in },
        temporary.$value.sink { _ in },
        temporary.objectWillChange.sink { _ in },
        temporary.publisher(for: \.value).sink { _ in },
      ]
      handed.withLock { $0 += made }
    }
    for step in 1...3 { temporary.value = Tag(writer: 3, index: round + step) }
  }

  /// The fourth thread's round `round`: an observer of the box that lives for a moment — by key
  /// path (ended by `invalidate()`, after which it must not be called, or from inside its prior
  /// notification), through `$value` or `objectWillChange` (cancelled, released, or cancelled
  /// from inside its own delivery).
  static func observeForAMoment(
    _ box: ObservableBox<String>, _ round: Int, transient: Counter, _ late: Counter
  ) {
    let captured = Tag(writer: 3, index: round)
    let ended = Atomic<Bool>(false)
    let own = Locked<(any Cancellable)?>(nil)
    let fromInside = round % 3 == 2
    let handler: @Sendable () -> Void = {
      withExtendedLifetime(captured) {}
      transient.increment()
      if ended.load(ordering: .acquiring) { late.increment() }
      if fromInside { own.withLock { $0.take() }?.cancel() }
    }
    // Made before it is stored (`$value` delivers the current value inside `sink`), in a scope
    // of its own, so that the box holds the only reference.
    do {
      let made: any Cancellable
      switch round % 4 {
      case 0, 1:
        made = box.observe(\.value, options: round % 2 == 0 ? [.prior] : [.new]) { _, _ in
          handler()
        }
      case 2:
        made = box.$value.sink { _ in handler() }
      default:
        made = box.objectWillChange.sink { handler() }
      }
      own.withLock { $0 = made }
    }
    spin(round % 5 * 200)
    var cancellable = own.withLock { $0.take() }
    if fromInside { return withExtendedLifetime(cancellable) {} }
    if round % 3 == 0 {
      cancellable?.cancel()
    } else {
      cancellable = nil  // Released: that ends it too.
    }
    // Only an observation by key path promises nothing after it ended (a subscriber may still
    // get a value already on its way).
    if round % 4 < 2 { ended.store(true, ordering: .releasing) }
  }
}
