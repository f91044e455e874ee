import KVOLiteBridge
import PackageModel

/// Workloads D and D2: a two-way mirror between a model's name and a view model's. One
/// operation is half a round trip: even operations edit the model (which must reach the view
/// model), odd ones the view model (which must reach the model).
///
/// The floor is a hand-written mirror: each side's `didSet` calls one closure, and both
/// directions are guarded by the last value that crossed, so that nothing echoes. D's ratios are
/// to the same mirror whose write back to the model goes through the key path
/// `\.recipient.firstName`, as the idiom's `assign(to:on:)` does (a third of a KVOLite round
/// trip is that write); D2, which writes no key path, is measured against the plain floor. Swift
/// Observation has no contender here: its `onChange` runs before the change, so an observer
/// cannot read the new value synchronously to mirror it.
enum MirrorWorkloads {
  /// D: the usual two-pipe idiom exactly. D2: the mirror as ``PackageViewModel`` builds it, with
  /// ``TwoWayBinding``.
  static func mirror(viewModelsOwn: Bool) -> Workload {
    Workload(
      name: viewModelsOwn
        ? "D2 the view model's own mirror" : "D  two-way mirror, the two-pipe idiom",
      target: viewModelsOwn ? Target(1.5) : Target(1.5, ahead: .named("naive registry")),
      floorName: "floor + key-path write",
      contenders: [
        Contender(name: "floor") {
          let model = opaque(FloorName())
          let viewModel = FloorName()
          var lastCrossed = ""
          model.onChange = { value in
            if value != lastCrossed {
              lastCrossed = value
              viewModel.firstName = value
            }
          }
          viewModel.onChange = { value in
            if value != lastCrossed {
              lastCrossed = value
              model.firstName = value
            }
          }
          return Case(
            effectPerOperation: 0,
            run: roundTrips(
              model: { model.firstName = $0 }, viewModel: { viewModel.firstName = $0 })
          ) {
            consistent(model.firstName, viewModel.firstName)
          }
        },
        Contender(name: "floor + key-path write") {
          let package = opaque(FloorPackage())
          let model = package.recipient
          let viewModel = FloorName()
          let keyPath = opaque(\FloorPackage.recipient.firstName)
          var lastCrossed = ""
          model.onChange = { value in
            if value != lastCrossed {
              lastCrossed = value
              viewModel.firstName = value
            }
          }
          viewModel.onChange = { value in
            if value != lastCrossed {
              lastCrossed = value
              package[keyPath: keyPath] = value
            }
          }
          return Case(
            effectPerOperation: 0,
            run: roundTrips(
              model: { model.firstName = $0 }, viewModel: { viewModel.firstName = $0 })
          ) {
            consistent(model.firstName, viewModel.firstName)
          }
        },
        Contender(name: "KVOLite") {
          let package = KVOLitePackage()
          let viewModel: any NameViewModel =
            viewModelsOwn ? GuardedViewModel(package) : SeedViewModel(package)
          let person = opaque(package.recipient)
          return Case(
            effectPerOperation: 0,
            run: roundTrips(
              model: { person.firstName = $0 }, viewModel: { viewModel.firstName = $0 })
          ) {
            consistent(person.firstName, viewModel.firstName)
          }
        },
        Contender(name: "naive registry") {
          let model = opaque(NaiveModel())
          let viewModel = NaiveModel()
          var lastCrossed = ""
          model.observe(\NaiveModel.value) { value in
            let value = value as! String
            if value != lastCrossed {
              lastCrossed = value
              viewModel.value = value
            }
            return true
          }
          viewModel.observe(\NaiveModel.value) { value in
            let value = value as! String
            if value != lastCrossed {
              lastCrossed = value
              model.value = value
            }
            return true
          }
          return Case(
            effectPerOperation: 0,
            run: roundTrips(model: { model.value = $0 }, viewModel: { viewModel.value = $0 })
          ) {
            consistent(model.value, viewModel.value)
          }
        },
      ])
  }

  /// `n` half round trips: model, view model, model…, with a new value each time.
  @inline(__always)
  private static func roundTrips(
    model: @escaping (String) -> Void, viewModel: @escaping (String) -> Void
  ) -> (Int) -> Void {
    { n in
      for i in 0..<n {
        if i & 1 == 0 { model(Pool.value(i)) } else { viewModel(Pool.value(i)) }
      }
    }
  }

  private static func consistent(_ model: String, _ viewModel: String) -> String? {
    model == viewModel && model == Pool.value(63)
      ? nil : "model \"\(model)\", view model \"\(viewModel)\""
  }
}

/// What the mirror workloads need of a KVOLite view model.
protocol NameViewModel: AnyObject {
  var firstName: String { get set }
}

/// The two-pipe idiom's view model: `publisher(for:)` assigned to `$firstName`, and
/// `$firstName.dropFirst().removeDuplicates().assign(to:on:)` back.
final class SeedViewModel: ObservableObject, NameViewModel {
  @Published var firstName = ""
  private var cancellables = Set<AnyCancellable>()

  init(_ package: KVOLitePackage) {
    package.publisher(for: \.recipient.firstName).assign(to: &$firstName)
    $firstName.dropFirst().removeDuplicates()
      .assign(to: \.recipient.firstName, on: package)
      .store(in: &cancellables)
  }
}

/// The mirror as `PackageViewModel` builds it: a ``TwoWayBinding``.
final class GuardedViewModel: ObservableObject, NameViewModel {
  @Published var firstName = ""
  private var cancellables = Set<AnyCancellable>()

  init(_ package: KVOLitePackage) {
    TwoWayBinding.bind(
      \.recipient.firstName, of: package, to: \.firstName, publishedBy: \.$firstName, on: self
    )
    .store(in: &cancellables)
  }
}
