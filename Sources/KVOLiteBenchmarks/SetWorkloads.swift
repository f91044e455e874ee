import KVOLite

/// Workloads A, A', B and B2: the cost of a set, with and without observers.
enum SetWorkloads {
  /// A: set a property with `observers` observers asking for `.new`.
  static func observed(_ observers: Int, perCallback: Bool = false) -> Workload {
    Workload(
      name: perCallback
        ? "A' per callback, K = \(observers)" : "A  set, K = \(observers) observers (.new)",
      target: perCallback ? "≤ 2×" : "≤ 2.5×",
      unitsPerOperation: perCallback ? Double(observers) : 1,
      contenders: [
        Contender(name: "baseline") {
          let model = opaque(BaselineModel())
          let sink = Sink()
          let tokens = (0..<observers).map { _ in model.observeValue { sink.consume($0) } }
          return { n in
            for i in 0..<n { model.value = i }
            withExtendedLifetime(tokens) {}
          }
        },
        Contender(name: "KVOLite") {
          let model = opaque(KVOLiteModel())
          let sink = Sink()
          let tokens = (0..<observers).map { _ in
            try! model.observe(\.value, options: [.new]) { _, change in sink.consume(change.newValue!) }
          }
          return { n in
            for i in 0..<n { model.value = i }
            withExtendedLifetime(tokens) {}
          }
        },
        Contender(name: "Observation") {
          let model = opaque(ObservationModel())
          let sink = Sink()
          let observers = (0..<observers).map { _ in Rearming(sink: sink) { model.value } }
          return { n in
            for i in 0..<n { model.value = i }
            withExtendedLifetime(observers) {}
          }
        },
        Contender(name: "naive registry") {
          let model = opaque(NaiveModel())
          let sink = Sink()
          for _ in 0..<observers {
            _ = model.observe(\NaiveModel.value) { sink.consume($0 as! Int); return true }
          }
          return { n in for i in 0..<n { model.value = i } }
        },
      ])
  }

  /// B: set a property nobody observes, while 1000 observers watch the same property of other
  /// objects of the same type. B2: while 10 observers watch a sibling key of the same object.
  static func unobserved(siblingObservers: Bool) -> Workload {
    let elsewhere = siblingObservers ? 10 : 1000
    func spread<T>(_ make: () -> T, _ observe: (T) -> Any) -> (T, [Any]) {
      let target = make()
      if siblingObservers {
        return (target, (0..<elsewhere).map { _ in observe(target) })
      }
      return (target, (0..<elsewhere).map { _ in observe(make()) })
    }
    return Workload(
      name: siblingObservers
        ? "B2 set, 10 observers on a sibling key" : "B  set, unobserved (1000 observers elsewhere)",
      target: "≤ 2×",
      contenders: [
        Contender(name: "baseline") {
          let sink = Sink()
          let (model, others) = spread(BaselineModel.init) { other in
            siblingObservers
              ? (other.observeOther { sink.consume($0) }, other) : (other.observeValue { sink.consume($0) }, other)
          }
          let target = opaque(model)
          return { n in
            for i in 0..<n { target.value = i }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "KVOLite") {
          let sink = Sink()
          let (model, others) = spread(KVOLiteModel.init) { other in
            (try! other.observe(siblingObservers ? \.other : \.value, options: [.new]) { _, change in
              sink.consume(change.newValue!)
            }, other)
          }
          let target = opaque(model)
          return { n in
            for i in 0..<n { target.value = i }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "Observation") {
          let sink = Sink()
          let (model, others) = spread(ObservationModel.init) { other in
            (Rearming(sink: sink) { siblingObservers ? other.other : other.value }, other)
          }
          let target = opaque(model)
          return { n in
            for i in 0..<n { target.value = i }
            withExtendedLifetime(others) {}
          }
        },
        Contender(name: "naive registry") {
          let sink = Sink()
          let (model, others) = spread(NaiveModel.init) { other in
            (other.observe(siblingObservers ? \NaiveModel.other : \NaiveModel.value) {
              sink.consume($0 as! Int)
              return true
            }, other)
          }
          let target = opaque(model)
          return { n in
            for i in 0..<n { target.value = i }
            withExtendedLifetime(others) {}
          }
        },
      ])
  }
}
