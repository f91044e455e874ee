import KVOLite

/// The workloads of the to-many and dependent-key issue: appending to an observed to-many
/// relationship, and setting an input of an observed derived key.
enum ToManyWorkloads {
  /// Appends; every 1,000 appends the array is emptied (by every contender alike), so that
  /// batches do not grow without bound.
  static func append(countOnly: Bool) -> Workload {
    Workload(
      name: countOnly ? "T2 append, 1 observer of contents.@count" : "T1 append, 1 observer of contents",
      target: "—",
      contenders: [
        Contender(name: "baseline") {
          let cart = opaque(BaselineCart())
          let sink = Sink()
          cart.contentsHandlers.append { countOnly ? sink.consume($0.count) : sink.consume($0.last ?? 0) }
          return { n in
            for i in 0..<n {
              cart.contents.append(i)
              if cart.contents.count == 1_000 { cart.contents = [] }
            }
          }
        },
        Contender(name: "KVOLite") {
          let cart = opaque(KVOLiteCart())
          let sink = Sink()
          let token =
            countOnly
            ? try! cart.observe("contents.@count", options: [.new]) { change in
              sink.consume(change.newValue!! as! Int)
            }
            : try! cart.observe(\.contents, options: [.new]) { _, change in
              sink.consume(change.newValue!.last ?? 0)
            }
          let contents = try! cart.mutableArrayValue(for: \.contents)
          return { n in
            for i in 0..<n {
              contents.append(i)
              if contents.count == 1_000 { cart.contents = [] }
            }
            withExtendedLifetime(token) {}
          }
        },
        Contender(name: "Observation") {
          let cart = opaque(ObservationCart())
          let sink = Sink()
          let observer = Rearming(sink: sink) { countOnly ? cart.contents.count : cart.contents.last ?? 0 }
          return { n in
            for i in 0..<n {
              cart.contents.append(i)
              if cart.contents.count == 1_000 { cart.contents = [] }
            }
            withExtendedLifetime(observer) {}
          }
        },
      ])
  }

  /// Sets an input of a derived key observed with `.new`.
  static var derived: Workload {
    Workload(
      name: "DK set an input of a derived key, 1 observer of it", target: "—",
      contenders: [
        Contender(name: "baseline") {
          let cart = opaque(BaselineCart())
          let sink = Sink()
          cart.fullNameHandlers.append { sink.consume($0.utf8.count) }
          return { n in for i in 0..<n { cart.firstName = names[i & 3] } }
        },
        Contender(name: "KVOLite") {
          let cart = opaque(KVOLiteCart())
          let sink = Sink()
          let token = try! cart.observe(\.fullName, options: [.new]) { _, change in
            sink.consume(change.newValue!.utf8.count)
          }
          return { n in
            for i in 0..<n { cart.firstName = names[i & 3] }
            withExtendedLifetime(token) {}
          }
        },
        Contender(name: "Observation") {
          let cart = opaque(ObservationCart())
          let sink = Sink()
          let observer = Rearming(sink: sink) { cart.fullName.utf8.count }
          return { n in
            for i in 0..<n { cart.firstName = names[i & 3] }
            withExtendedLifetime(observer) {}
          }
        },
      ])
  }

  static let names = ["Ann", "Bob", "Cy", "Di"]
}
