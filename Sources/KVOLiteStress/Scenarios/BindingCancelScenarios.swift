import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Two-way bindings cancelled while both sides are written, round by round (see
/// ``BindingRoundScenarios``): from inside a subscriber of either side, and from another thread.
enum BindingCancelScenarios {
  static var all: [StressScenario] { [cancelledFromSubscriber, nothingAfterCancel] }

  typealias Round = BindingRoundScenarios.Round
  static let perRound = BindingRoundScenarios.perRound

  /// Which subscriber cancels the binding: the view model's property's, its
  /// `objectWillChange`'s, or the model's observer.
  enum Canceller: CaseIterable {
    case property, objectWillChange, model
  }

  /// A subscriber of one side cancels the binding from inside its delivery, while threads write
  /// both sides (and, every other round, another thread cancels it too). Nothing may deadlock
  /// (a subscriber that cancels holds its delivery lock, which the other side's crossing may be
  /// waiting for), and everything is released.
  static let cancelledFromSubscriber = StressScenario(
    name: "bindings: cancelled from a subscriber of either side while both sides are written"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let fromInside = Counter()
    let fromOutside = Counter()
    BindingRoundScenarios.runRounds(rounds) { index in
      var round = Round(Contact(), isChain: index % 2 == 1)
      let viewModel = round.viewModel!
      let calls = Atomic<Int>(0)
      // The subscriber cancels on its sixth call, from whichever thread makes it.
      let cancel: @Sendable () -> Void = { [weak viewModel] in
        guard calls.add(1, ordering: .relaxed).newValue == 6 else { return }
        viewModel?.binding?.cancel()
        fromInside.increment()
      }
      switch Canceller.allCases[index % 3] {
      case .property:
        round.viewModelExtras = [viewModel.$name.dropFirst().sink { _ in cancel() }]
      case .objectWillChange:
        round.viewModelExtras = [viewModel.objectWillChange.sink { cancel() }]
      case .model:
        round.modelExtras = [round.contact!.observe(round.keyPath) { _, _ in cancel() }]
      }
      return round
    } body: { worker, index, round, _ in
      if worker == 2, index % 2 == 0 {
        spin(index % 7 * 300)
        round.binding?.cancel()
        fromOutside.increment()
      }
      BindingRoundScenarios.write(worker, index, round)
    }
    report.count("rounds", rounds)
    report.count("cancelled from a subscriber", fromInside.count)
    report.count("cancelled from another thread", fromOutside.count)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// One thread cancels the binding (outside any delivery) while two write the sides: once
  /// `cancel()` has returned, no value crosses, either way. A model observer registered before
  /// the binding sees every value the binding writes to the model, a subscriber of the view
  /// model every value it writes there; each counts the values from the other side that arrive
  /// after `cancel()` returned.
  static let nothingAfterCancel = StressScenario(
    name: "bindings: nothing crosses after cancel() returns"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let crossed = Counter()
    let late = Counter()
    BindingRoundScenarios.runRounds(rounds) { index in
      let contact = Contact()
      let returned = CancelFlag()
      // Values written by thread 1 reach the model only through the binding; values written
      // by thread 0 reach the view model only through it.
      let toModel = contact.observe(index % 2 == 1 ? \.address.street : \.name, options: [.new]) {
        _, change in
        guard let value = change.newValue.flatMap(Stamp.parse), value.writer == 1 else { return }
        returned.crossing()
        spin(1_000)  // A crossing that takes a while: cancel() comes in the middle of some.
        if returned.isSet { late.increment() } else { crossed.increment() }
      }
      var round = Round(contact, isChain: index % 2 == 1)
      let toViewModel = round.viewModel!.$name.dropFirst().sink { value in
        guard let value = Stamp.parse(value), value.writer == 0 else { return }
        returned.crossing()
        spin(1_000)
        if returned.isSet { late.increment() } else { crossed.increment() }
      }
      round.modelExtras = [toModel]
      round.viewModelExtras = [toViewModel, returned]
      return round
    } body: { worker, index, round, _ in
      guard worker == 2 else { return BindingRoundScenarios.write(worker, index, round) }
      // In the middle of the writes: once some values have crossed.
      let flag = round.viewModelExtras.last as! CancelFlag
      while flag.crossings < 1 + index % 32 { spin(100) }
      round.binding?.cancel()
      flag.set()
    }
    report.count("rounds", rounds)
    report.count("values crossed before cancel() returned", crossed.count)
    report.expect("values crossed after cancel() returned", late.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// The flag a round's canceller sets once `cancel()` has returned, and the crossings seen.
  final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    private let seen = Atomic<Int>(0)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
    func crossing() { seen.add(1, ordering: .relaxed) }
    var crossings: Int { seen.load(ordering: .relaxed) }
  }
}
