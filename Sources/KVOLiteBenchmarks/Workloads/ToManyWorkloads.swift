import KVOLite

/// Appending to an observed to-many relationship (T1, T2), and setting an input of an observed
/// derived key (DK).
enum ToManyWorkloads {
  /// Appends a pooled string; every 1,000 appends the array is emptied by a plain set (notified,
  /// by every contender alike), so that batches do not grow without bound.
  static func append(countOnly: Bool) -> Workload {
    Workload(
      name: countOnly
        ? "T2 append, 1 observer of contents.@count" : "T1 append, 1 observer of contents",
      target: .none,
      contenders: [
        Contender(name: "floor") {
          let cart = opaque(FloorCart())
          cart.contentsHandlers.append {
            countOnly ? Effect.consume($0.count) : Effect.consume($0.last ?? "")
          }
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n {
              cart.contents.append(Pool.value(i))
              if cart.contents.count == 1_000 { cart.contents = [] }
            }
          }
        },
        Contender(name: "KVOLite") {
          let cart = opaque(KVOLiteCart())
          let token =
            countOnly
            ? try! cart.observe("contents.@count", options: [.new]) { change in
              Effect.consume(change.newValue!! as! Int)
            }
            : cart.observe(\.contents, options: [.new]) { _, change in
              Effect.consume(change.newValue!.last ?? "")
            }
          let contents = cart.mutableArrayValue(for: \.contents)
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n {
              contents.append(Pool.value(i))
              if contents.count == 1_000 { cart.contents = [] }
            }
            withExtendedLifetime(token) {}
          }
        },
        Contender(name: "Observation") {
          let cart = opaque(ObservationCart())
          cart.contents = [Pool.value(0)]
          let observer = Rearming {
            countOnly
              ? Effect.consume(cart.contents.count) : Effect.consume(cart.contents.last ?? "")
          }
          return Case(effectPerOperation: Pool.length) { n in
            for i in 0..<n {
              cart.contents.append(Pool.value(i))
              if cart.contents.count == 1_000 { cart.contents = [Pool.value(0)] }
            }
            withExtendedLifetime(observer) {}
          }
        },
      ])
  }

  /// Sets an input of a derived key observed with `.new`. The full name is a pooled first name
  /// and " Smith": 30 bytes.
  static var derived: Workload {
    let effect = Pool.length + 6
    return Workload(
      name: "DK set an input of a derived key, 1 observer of it", target: .none,
      contenders: [
        Contender(name: "floor") {
          let cart = opaque(FloorCart())
          cart.fullNameHandlers.append { Effect.consume($0) }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { cart.firstName = Pool.value(i) }
          }
        },
        Contender(name: "KVOLite") {
          let cart = opaque(KVOLiteCart())
          let token = cart.observe(\.fullName, options: [.new]) { _, change in
            Effect.consume(change.newValue!)
          }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { cart.firstName = Pool.value(i) }
            withExtendedLifetime(token) {}
          }
        },
        Contender(name: "KVOLite found") {
          let cart = opaque(KVOLiteFoundCart())
          let token = cart.observe(\.fullName, options: [.new]) { _, change in
            Effect.consume(change.newValue!)
          }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { cart.firstName = Pool.value(i) }
            withExtendedLifetime(token) {}
          }
        },
        Contender(name: "KVOLite Observable") {
          let cart = opaque(KVOLiteObservableCart())
          let token = cart.observe(\.fullName, options: [.new]) { _, change in
            Effect.consume(change.newValue!)
          }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { cart.firstName = Pool.value(i) }
            withExtendedLifetime(token) {}
          }
        },
        Contender(name: "Observation") {
          let cart = opaque(ObservationCart())
          cart.firstName = Pool.value(Pool.size - 1)
          let observer = Rearming { Effect.consume(cart.fullName) }
          return Case(effectPerOperation: effect) { n in
            for i in 0..<n { cart.firstName = Pool.value(i) }
            withExtendedLifetime(observer) {}
          }
        },
      ])
  }
}
