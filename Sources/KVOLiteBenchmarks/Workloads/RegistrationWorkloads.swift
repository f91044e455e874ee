import KVOLiteBridge

/// Workloads C and E: registering and cancelling, and observing through a chain.
enum RegistrationWorkloads {
  /// C: register one observation and cancel it, on an object nobody else observes. (The
  /// Combine-style peers deliver the current value to every new subscriber: one callback each.)
  static var registerAndCancel: Workload {
    Workload(
      name: "C  register + cancel one observation", target: Target(2.5),
      contenders: [
        Contender(name: "floor") {
          let model = opaque(FloorModel())
          return Case(effectPerOperation: 0) { n in
            for _ in 0..<n { model.observeValue { Effect.consume($0) }.cancel() }
          }
        },
        Contender(name: "KVOLite") {
          let model = opaque(KVOLiteModel())
          return Case(effectPerOperation: 0) { n in
            for _ in 0..<n {
              model.observe(\.value, options: [.new]) { _, change in
                Effect.consume(change.newValue!)
              }
              .invalidate()
            }
          }
        },
        Contender(name: "naive registry") {
          let model = opaque(NaiveModel())
          return Case(effectPerOperation: 0) { n in
            for _ in 0..<n {
              let id = model.observe(\NaiveModel.value) {
                Effect.consume($0 as! String)
                return true
              }
              model.remove(\NaiveModel.value, id: id)
            }
          }
        },
        Contender(name: "CurrentValueSubject") {
          let model = opaque(SubjectModel())
          model.value.value = Pool.value(0)
          return Case(effectPerOperation: Pool.length) { n in
            for _ in 0..<n { model.value.sink { Effect.consume($0) }.cancel() }
          }
        },
        Contender(name: "@Published") {
          let model = opaque(PublishedModel())
          model.value = Pool.value(0)
          return Case(effectPerOperation: Pool.length) { n in
            for _ in 0..<n { model.$value.sink { Effect.consume($0) }.cancel() }
          }
        },
      ])
  }

  /// E: one observer of `recipient.postalAddress.street`; the leaf is set.
  static var chain: Workload {
    Workload(
      name: "E  chain recipient.postalAddress.street, set the leaf", target: Target(2.5),
      contenders: [
        Contender(name: "floor") {
          let address = opaque(FloorAddress())
          address.handlers.append { Effect.consume($0) }
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n { address.street = Pool.value(i) }
          }
        },
        // Not the floor: the floor's leaf closure given the root, captured weakly (as a chain
        // observation must not keep its root alive). Shows what the weak load costs by itself.
        Contender(name: "floor + weak root") {
          let root = FloorAddress()
          let address = opaque(FloorAddress())
          address.handlers.append { [weak root] street in
            guard let root else { return }
            Effect.consume(street)
            withExtendedLifetime(root) {}
          }
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n { address.street = Pool.value(i) }
            withExtendedLifetime(root) {}
          }
        },
        Contender(name: "KVOLite") {
          let package = KVOLitePackage()
          let token = package.observe(\.recipient.postalAddress.street, options: [.new]) {
            _, change in
            Effect.consume(change.newValue!)
          }
          let address = opaque(package.recipient.postalAddress)
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n { address.street = Pool.value(i) }
            withExtendedLifetime((token, package)) {}
          }
        },
        Contender(name: "Observation") {
          let package = ObservationPackage()
          let observer = Rearming { Effect.consume(package.recipient.postalAddress.street) }
          let address = opaque(package.recipient.postalAddress)
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n { address.street = Pool.value(i) }
            withExtendedLifetime((observer, package)) {}
          }
        },
        Contender(name: "naive registry") {
          let address = opaque(NaiveModel())
          address.observe(\NaiveModel.street) {
            Effect.consume($0 as! String)
            return true
          }
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n { address.street = Pool.value(i) }
          }
        },
      ])
  }
}
