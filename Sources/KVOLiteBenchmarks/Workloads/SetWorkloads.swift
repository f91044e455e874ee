import KVOLiteBridge

/// Workloads A, A', B and B2: the cost of a set, with and without observers ("KVOLite
/// Observable": the same model, also `Observable`, which nothing tracks).
enum SetWorkloads {
  /// A: set a property with `observers` observers asking for `.new`. A' reports the same per
  /// callback.
  static func observed(_ observers: Int, perCallback: Bool = false) -> Workload {
    let effect = observers * Pool.length
    return Workload(
      name: perCallback
        ? "A' per callback, K = \(observers)" : "A  set, K = \(observers) observers (.new)",
      target: Target(2),
      unitsPerOperation: perCallback ? Double(observers) : 1,
      contenders: [
        Contender(name: "floor") {
          let model = opaque(FloorModel())
          let tokens = (0..<observers).map { _ in model.observeValue { Effect.consume($0) } }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = Pool.value(i) }
            withExtendedLifetime(tokens) {}
          }
        },
        Contender(name: "floor (Int)") {
          let model = opaque(FloorIntModel())
          model.handlers = (0..<observers).map { _ in { Effect.consume($0) } }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = i }
          }
        },
        Contender(name: "KVOLite") {
          let model = opaque(KVOLiteModel())
          let tokens = (0..<observers).map { _ in
            model.observe(\.value, options: [.new]) { _, change in Effect.consume(change.newValue!)
            }
          }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = Pool.value(i) }
            withExtendedLifetime(tokens) {}
          }
        },
        Contender(name: "KVOLite Observable") {
          let model = opaque(KVOLiteObservableModel())
          let tokens = (0..<observers).map { _ in
            model.observe(\.value, options: [.new]) { _, change in Effect.consume(change.newValue!)
            }
          }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = Pool.value(i) }
            withExtendedLifetime(tokens) {}
          }
        },
        Contender(name: "Observation") {
          let model = opaque(ObservationModel())
          let observers = (0..<observers).map { _ in Rearming { Effect.consume(model.value) } }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = Pool.value(i) }
            withExtendedLifetime(observers) {}
          }
        },
        Contender(name: "naive registry") {
          let model = opaque(NaiveModel())
          for _ in 0..<observers {
            model.observe(\NaiveModel.value) {
              Effect.consume($0 as! String)
              return true
            }
          }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = Pool.value(i) }
          }
        },
        Contender(name: "CurrentValueSubject") {
          let model = opaque(SubjectModel())
          let cancellables = (0..<observers).map { _ in model.value.sink { Effect.consume($0) } }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value.value = Pool.value(i) }
            withExtendedLifetime(cancellables) {}
          }
        },
        Contender(name: "@Published") {
          let model = opaque(PublishedModel())
          let cancellables = (0..<observers).map { _ in model.$value.sink { Effect.consume($0) } }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { model.value = Pool.value(i) }
            withExtendedLifetime(cancellables) {}
          }
        },
      ])
  }

  /// B: set a property nobody observes, while 1000 observers watch the same property of other
  /// objects of the same type. B2: while 10 observers watch a sibling key of the same object.
  static func unobserved(siblingObservers: Bool) -> Workload {
    let elsewhere = siblingObservers ? 10 : 1000
    /// The object to set, and what keeps the observers elsewhere alive.
    func fixture<Model>(_ make: () -> Model, _ observe: (Model) -> Any) -> (Model, [Any]) {
      let target = make()
      if siblingObservers { return (target, (0..<elsewhere).map { _ in observe(target) }) }
      return (target, (0..<elsewhere).map { _ in [observe(make())] })
    }
    return Workload(
      name: siblingObservers
        ? "B2 set, 10 observers on a sibling key" : "B  set, unobserved (1000 observers elsewhere)",
      target: siblingObservers ? Target(2) : Target(2, ahead: .all),
      contenders: [
        Contender(name: "floor") {
          let (model, others) = fixture(FloorModel.init) { model in
            siblingObservers
              ? [model.observeOther { Effect.consume($0) }, model]
              : [model.observeValue { Effect.consume($0) }, model]
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "floor (Int)") {
          let target = opaque(FloorIntModel())
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = i }
          }
        },
        Contender(name: "KVOLite") {
          let (model, others) = fixture(KVOLiteModel.init) { model in
            [
              model.observe(siblingObservers ? \.other : \.value, options: [.new]) { _, change in
                Effect.consume(change.newValue!)
              }, model,
            ]
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "KVOLite Observable") {
          let (model, others) = fixture(KVOLiteObservableModel.init) { model in
            [
              model.observe(siblingObservers ? \.other : \.value, options: [.new]) { _, change in
                Effect.consume(change.newValue!)
              }, model,
            ]
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "Observation") {
          let (model, others) = fixture(ObservationModel.init) { model in
            [Rearming { Effect.consume(siblingObservers ? model.other : model.value) }, model]
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "naive registry") {
          let (model, others) = fixture(NaiveModel.init) { model in
            model.observe(siblingObservers ? \NaiveModel.other : \NaiveModel.value) {
              Effect.consume($0 as! String)
              return true
            }
            return model
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "CurrentValueSubject") {
          let (model, others) = fixture(SubjectModel.init) { model in
            [(siblingObservers ? model.other : model.value).sink { Effect.consume($0) }, model]
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "@Published") {
          let (model, others) = fixture(PublishedModel.init) { model in
            [(siblingObservers ? model.$other : model.$value).sink { Effect.consume($0) }, model]
          }
          let target = opaque(model)
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n { target.value = Pool.value(i) }
            withExtendedLifetime(others) {}
          }
        },
      ])
  }
}
