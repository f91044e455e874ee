#if DEBUG
  import KVOLiteBridge
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// Every interleaving of a thread setting the model, a thread setting the view model, and a
  /// model observer that adjusts what either side writes or a cancellation, on the shipped
  /// `TwoWayBinding` (its mirror, its machine, its gate), run one thread at a time by
  /// ``ThreadScheduler``: at quiescence both sides are equal; nothing crosses after `cancel()`
  /// returns.
  @Suite("Two-way binding schedules")
  struct TwoWayBindingScheduleTests {
    final class Contact: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed var name = "start"
    }

    final class NameViewModel: ObservableObject, @unchecked Sendable {
      @Published var name = ""
    }

    final class World: @unchecked Sendable {
      let model = ThreadScheduler.distinctLocks(1) { Contact() }[0]
      let viewModel = NameViewModel()
      var binding: AnyCancellable?
      var normalizer: ObservationToken?
      let returned = Atomic<Bool>(false)
      let late = Atomic<Int>(0)
      var subscription: AnyCancellable?

      /// A binding, with a model observer registered before it that ends every name with "!"
      /// (an adjustment), if `normalizes`.
      init(normalizes: Bool) {
        if normalizes {
          normalizer = model.observe(\.name, options: [.new]) { [unowned self] _, change in
            if let name = change.newValue, !name.hasSuffix("!") { model.name = name + "!" }
          }
        }
        binding = TwoWayBinding.bind(
          \.name, of: model, to: \.name, publishedBy: \.$name, on: viewModel)
        // Counts what the binding writes to the view model after cancel() returned (the view
        // model's own set writes "v").
        subscription = viewModel.$name.dropFirst().sink { [unowned self] name in
          if name != "v", returned.load(ordering: .relaxed) { late.add(1, ordering: .relaxed) }
        }
      }

      var sidesDiffer: String? {
        model.name == viewModel.name
          ? nil : "the model has \(model.name), the view model \(viewModel.name)"
      }
    }

    static func explore(
      normalizes: Bool, preemptions: Int? = nil,
      third: ((World) -> ThreadScheduler.Caller)? = nil, atEnd: @escaping (World) -> String?
    ) -> ThreadScheduler.Report {
      ThreadScheduler.explore(
        stepsArePoints: third != nil, preemptions: preemptions,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World(normalizes: normalizes)
          return (
            world,
            [
              .init("model") { world.model.name = "m" },
              .init("view model") { world.viewModel.name = "v" },
            ] + (third.map { [$0(world)] } ?? [])
          )
        },
        atEnd: atEnd)
    }

    @Test("a writer on each side: both sides equal at quiescence")
    func writers() {
      let report = Self.explore(normalizes: false, preemptions: 2) { $0.sidesDiffer }
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 195)
    }

    @Test("a writer on each side and a model observer that adjusts every value: equal")
    func writersAndAdjustment() {
      let report = Self.explore(normalizes: true, preemptions: 2) { $0.sidesDiffer }
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 469)
    }

    @Test("a writer on each side and a cancellation: nothing crosses after cancel() returns")
    func writersAndCancel() {
      let report = Self.explore(normalizes: false, preemptions: 1) { world in
        .init("cancel") {
          world.binding?.cancel()
          world.returned.store(true, ordering: .relaxed)
        }
      } atEnd: { world in
        world.late.load(ordering: .relaxed) == 0 ? nil : "a crossing after cancel() returned"
      }
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 400)
    }
  }
#endif
