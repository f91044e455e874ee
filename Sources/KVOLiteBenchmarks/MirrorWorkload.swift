import KVOLite
import PackageModel

/// Workload D: the two-way mirror of a view model. One operation is a round trip: even
/// operations edit the model (which must reach the view model), odd ones edit the view model
/// (which must reach the model). Every contender guards both directions with the last value
/// that crossed, so that nothing echoes.
///
/// Swift Observation has no contender here: its `onChange` runs before the change, so an
/// observer cannot read the new value synchronously to mirror it.
enum MirrorWorkload {
  static var roundTrip: Workload {
    Workload(
      name: "D  two-way mirror round trip", target: "≤ 3×",
      contenders: [
        Contender(name: "baseline") {
          let model = opaque(BaselinePerson())
          let viewModel = BaselineViewModel()
          var lastSynced = ""
          model.onChange = { if $0 != lastSynced { lastSynced = $0; viewModel.firstName = $0 } }
          viewModel.onChange = { if $0 != lastSynced { lastSynced = $0; model.firstName = $0 } }
          return { n in
            for i in 0..<n {
              if i & 1 == 0 { model.firstName = names[i & 3] } else { viewModel.firstName = names[i & 3] }
            }
          }
        },
        Contender(name: "KVOLite") {
          let package = KVOLitePackage()
          let viewModel = try! KVOLiteViewModel(package)
          let person = opaque(package.recipient)
          return { n in
            for i in 0..<n {
              if i & 1 == 0 { person.firstName = names[i & 3] } else { viewModel.firstName = names[i & 3] }
            }
            withExtendedLifetime(package) {}
          }
        },
        Contender(name: "naive registry") {
          let model = opaque(NaiveName())
          let viewModel = NaiveName()
          var lastSynced = ""
          _ = model.observe(\NaiveName.firstName) { value in
            let value = value as! String
            if value != lastSynced { lastSynced = value; viewModel.firstName = value }
            return true
          }
          _ = viewModel.observe(\NaiveName.firstName) { value in
            let value = value as! String
            if value != lastSynced { lastSynced = value; model.firstName = value }
            return true
          }
          return { n in
            for i in 0..<n {
              if i & 1 == 0 { model.firstName = names[i & 3] } else { viewModel.firstName = names[i & 3] }
            }
          }
        },
      ])
  }

  static let names = ["Ann", "Bob", "Cy", "Di"]
}

/// KVOLite's view model: the mirror exactly as the package editor's view model builds it.
final class KVOLiteViewModel: ObservableObject {
  @Published var firstName = ""
  private var cancellables = Set<AnyCancellable>()

  init(_ package: KVOLitePackage) throws {
    let echo = MirrorGuard<String>()
    try package.publisher(for: \.recipient.firstName).filter(echo.crossing).assign(to: &$firstName)
    $firstName.dropFirst().removeDuplicates()
      .filter(echo.crossing)
      .assign(to: \.recipient.firstName, on: package)
      .store(in: &cancellables)
  }
}

final class BaselinePerson {
  var onChange: ((String) -> Void)?
  var firstName = "" { didSet { onChange?(firstName) } }
}

final class BaselineViewModel {
  var onChange: ((String) -> Void)?
  var firstName = "" { didSet { onChange?(firstName) } }
}

/// The naive registry's side of a mirror.
final class NaiveName {
  private var handlers: [PartialKeyPath<NaiveName>: [(Any) -> Bool]] = [:]
  var firstName = "" { didSet { notify(\NaiveName.firstName, firstName) } }

  func observe(_ keyPath: PartialKeyPath<NaiveName>, _ handler: @escaping (Any) -> Bool) -> Int {
    handlers[keyPath, default: []].append(handler)
    return handlers[keyPath]!.count
  }

  private func notify(_ keyPath: PartialKeyPath<NaiveName>, _ value: Any) {
    guard let list = handlers[keyPath] else { return }
    for handler in list { _ = handler(value) }
  }
}
