import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Two-way bindings raced round by round: each round binds a new model and view model, three
/// threads write both sides, and the round ends with each thread letting go of what it holds,
/// so that the model, the view model and the binding are released on different threads, some
/// of them while the others still write (every fourth round). The model is bound by its `name`
/// in even rounds and by the chain `address.street` in odd ones, whose intermediate a writer
/// replaces (a structural change).
enum BindingRoundScenarios {
  static var all: [StressScenario] { [converge, adjusted] }

  /// Operations per thread in one round: enough for the writers to overlap.
  static let perRound = 128

  /// A view model bound in its initializer, as view models are.
  final class RoundViewModel: ObservableObject, @unchecked Sendable {
    // @unchecked: `binding` is set once, in the initializer.
    @Published var name = ""
    private(set) var binding: AnyCancellable?

    /// Bound outside any actor, or, with `actor`, as a view model isolated to it would be.
    init(
      _ contact: Contact, _ keyPath: ReferenceWritableKeyPath<Contact, String>,
      actor: (any Actor)? = nil
    ) {
      liveObjects.add(1, ordering: .relaxed)
      binding = TwoWayBinding.bind(
        keyPath, of: contact, to: \.name, publishedBy: \.$name, on: self, isolation: actor)
    }

    deinit { liveObjects.subtract(1, ordering: .relaxed) }
  }

  /// What one round binds, handed from the thread that makes it to the others; each thread
  /// then keeps only its own part (``keep(_:)``).
  struct Round: @unchecked Sendable {
    // @unchecked: each part is thread-safe, and each thread keeps only its own part.
    var contact: Contact?
    var viewModel: RoundViewModel?
    var binding: AnyCancellable?
    /// Observation tokens of the model, kept with it.
    var modelExtras: [AnyObject] = []
    /// Subscriptions of the view model, kept with the binding.
    var viewModelExtras: [AnyObject] = []
    /// The view model, for the thread that does not keep it.
    weak var watched: RoundViewModel?
    let isChain: Bool

    init(_ contact: Contact, isChain: Bool, actor: (any Actor)? = nil) {
      self.contact = contact
      self.isChain = isChain
      let viewModel = RoundViewModel(contact, isChain ? \.address.street : \.name, actor: actor)
      self.viewModel = viewModel
      binding = viewModel.binding
      watched = viewModel
    }

    var keyPath: ReferenceWritableKeyPath<Contact, String> {
      isChain ? \.address.street : \.name
    }

    /// Lets go of the parts other threads keep: thread 0 keeps the model and its tokens,
    /// thread 1 the view model, thread 2 the model, the binding and the subscriptions. So each
    /// party is released on whichever thread lets go of it last.
    mutating func keep(_ worker: Int) {
      if worker != 0 { modelExtras = [] }
      if worker != 1 { viewModel = nil }
      if worker == 1 { contact = nil }
      if worker != 2 { (binding, viewModelExtras) = (nil, []) }
    }
  }

  /// Runs `rounds` rounds on three threads. `make` builds a round (on thread 0); each thread
  /// gets it, keeps its part, and runs `body(worker, index, round, barrier)`; the round ends
  /// when each thread lets go of its part. `barrier` is for the threads to meet mid-round
  /// (each the same number of times). A round starts when every thread has ended the previous.
  static func runRounds(
    _ rounds: Int, make: @escaping @Sendable (_ index: Int) -> Round,
    body: @escaping @Sendable (_ worker: Int, _ index: Int, _ round: Round, RoundBarrier) -> Void
  ) {
    let barrier = RoundBarrier(count: 3)
    let middle = RoundBarrier(count: 3)
    let handoff = Locked<Round?>(nil)
    race(workers: 3) { worker in
      for index in 0..<rounds {
        if worker == 0 { handoff.withLock { $0 = make(index) } }
        barrier.arriveAndWait()
        var round = handoff.withLock { $0 }!
        round.keep(worker)
        barrier.arriveAndWait()
        if worker == 0 { handoff.withLock { $0 = nil } }
        body(worker, index, round, middle)
      }
    }
  }

  /// Writes one side `perRound` times: thread 0 sets the model's key, thread 1 the view model,
  /// thread 2 the model too (in chain rounds, every fourth write replaces the intermediate).
  /// With `together`, the three threads make their last write at the same moment.
  static func write(_ worker: Int, _ index: Int, _ round: Round, together: RoundBarrier? = nil) {
    for step in 0..<perRound {
      if step == perRound - 1 { together?.arriveAndWait() }
      let value = Stamp.string(writer: worker, index: index * perRound + step)
      switch worker {
      case 1: round.viewModel?.name = value
      case 2 where round.isChain && step % 4 == 0: round.contact?.address = Address(street: value)
      default: round.contact?[keyPath: round.keyPath] = value
      }
    }
  }

  /// After writers on both sides stop, both sides hold the same value: the model's last stored
  /// value. A slow model observer, registered before the binding, delays half the deliveries,
  /// so that sets are delivered in another order than they were stored; the threads make their
  /// last writes together.
  static let converge = StressScenario(
    name: "bindings: the sides converge after concurrent writers on both sides stop"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let checked = Counter()
    let disagreements = Counter()
    let example = Locked<String?>(nil)
    runRounds(rounds) { index in
      let contact = Contact()
      let isChain = index % 2 == 1
      // Before the binding, so that it delays the binding's delivery of some sets.
      let slow = contact.observe(isChain ? \.address.street : \.name, options: [.new]) {
        _, change in
        if let value = change.newValue, value.utf8.count % 2 == 0 { spin(5_000) }
      }
      var round = Round(contact, isChain: isChain)
      round.modelExtras = [slow]
      return round
    } body: { worker, index, round, middle in
      write(worker, index, round, together: index % 4 != 3 ? middle : nil)
      // Every fourth round, each thread lets go of its part as soon as it is done writing.
      guard index % 4 != 3 else { return }
      middle.arriveAndWait()
      if worker == 0, let contact = round.contact, let viewModel = round.watched {
        let model = contact[keyPath: round.keyPath]
        checked.increment()
        if model != viewModel.name {
          disagreements.increment()
          let text = "round \(index): model \(model), view model \(viewModel.name)"
          example.withLock { $0 = $0 ?? text }
        }
      }
      middle.arriveAndWait()
    }
    report.count("rounds", rounds)
    report.count("rounds compared", checked.count)
    report.expect("rounds whose sides disagree", disagreements.count, 0)
    if let example = example.withLock({ $0 }) { report.failures.append(example) }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// A model observer registered before the binding adjusts every value written to the model
  /// (it appends "!" to a name without one), on whichever thread wrote it: the view model's
  /// set, crossed to the model, is adjusted there and must cross back, after the view model's
  /// own store. Once the writers on both sides stop, both sides hold the model's last value,
  /// adjusted. (With Apple's `@Published`, off an actor, the binding cannot cross it back: the
  /// documented case that remains, where only the rounds are run.)
  static let adjusted = StressScenario(
    name: "bindings: a model observer adjusts what either side writes, and the sides converge"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let disagreements = Counter()
    let example = Locked<String?>(nil)
    runRounds(rounds) { index in
      let contact = Contact()
      let isChain = index % 2 == 1
      let keyPath: ReferenceWritableKeyPath<Contact, String> = isChain ? \.address.street : \.name
      // Before the binding: it runs first in each delivery, and sets again at once.
      let normalizer = contact.observe(keyPath, options: [.new]) { contact, change in
        guard let value = change.newValue, !value.hasSuffix("!") else { return }
        contact[keyPath: keyPath] = value + "!"
      }
      var round = Round(contact, isChain: isChain)
      round.modelExtras = [normalizer]
      return round
    } body: { worker, index, round, middle in
      write(worker, index, round, together: middle)
      middle.arriveAndWait()
      if worker == 0, let contact = round.contact, let viewModel = round.watched {
        let model = contact[keyPath: round.keyPath]
        if model != viewModel.name || !model.hasSuffix("!") {
          disagreements.increment()
          let text = "round \(index): model \(model), view model \(viewModel.name)"
          example.withLock { $0 = $0 ?? text }
        }
      }
      middle.arriveAndWait()
    }
    report.count("rounds", rounds)
    #if !canImport(Darwin)
      report.expect("rounds whose sides disagree", disagreements.count, 0)
      if let example = example.withLock({ $0 }) { report.failures.append(example) }
    #endif
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}

/// Busy work the optimizer cannot remove.
func spin(_ count: Int) {
  var index = 0
  while index < count { index = opaqueIncrement(index) }
}

@inline(never)
func opaqueIncrement(_ value: Int) -> Int { value + 1 }
