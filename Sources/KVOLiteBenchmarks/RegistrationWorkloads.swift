import KVOLite

/// Workloads C and E: registering and cancelling, and observing through a chain.
enum RegistrationWorkloads {
  /// C: register one observation and cancel it, on an object nobody else observes.
  static var registerAndCancel: Workload { Workload(
    name: "C  register + cancel one observation", target: "≤ 3×",
    contenders: [
      Contender(name: "baseline") {
        let model = opaque(BaselineModel())
        let sink = Sink()
        return { n in
          for _ in 0..<n { model.observeValue { sink.consume($0) }.cancel() }
        }
      },
      Contender(name: "KVOLite") {
        let model = opaque(KVOLiteModel())
        let sink = Sink()
        return { n in
          for _ in 0..<n {
            try! model.observe(\.value, options: [.new]) { _, change in sink.consume(change.newValue!) }
              .invalidate()
          }
        }
      },
      Contender(name: "naive registry") {
        let model = opaque(NaiveModel())
        let sink = Sink()
        return { n in
          for _ in 0..<n {
            let id = model.observe(\NaiveModel.value) { sink.consume($0 as! Int); return true }
            model.remove(\NaiveModel.value, id: id)
          }
        }
      },
    ]) }

  /// E: one observer of `recipient.postalAddress.street`; the leaf is set.
  static var chain: Workload { Workload(
    name: "E  chain recipient.postalAddress.street, set the leaf", target: "≤ 3×",
    contenders: [
      Contender(name: "baseline") {
        let address = opaque(BaselineAddress())
        let sink = Sink()
        address.handlers.append { sink.consume($0.utf8.count) }
        return { n in for i in 0..<n { address.street = streets[i & 3] } }
      },
      Contender(name: "KVOLite") {
        let package = KVOLitePackage()
        let sink = Sink()
        let token = try! package.observe(\.recipient.postalAddress.street, options: [.new]) { _, change in
          sink.consume(change.newValue!.utf8.count)
        }
        let address = opaque(package.recipient.postalAddress)
        return { n in
          for i in 0..<n { address.street = streets[i & 3] }
          withExtendedLifetime((token, package)) {}
        }
      },
      Contender(name: "Observation") {
        let package = ObservationPackage()
        let sink = Sink()
        let observer = Rearming(sink: sink) { package.recipient.postalAddress.street.utf8.count }
        let address = opaque(package.recipient.postalAddress)
        return { n in
          for i in 0..<n { address.street = streets[i & 3] }
          withExtendedLifetime((observer, package)) {}
        }
      },
      Contender(name: "naive registry") {
        let address = opaque(NaiveAddress())
        let sink = Sink()
        address.observe(\NaiveAddress.street) { sink.consume(($0 as! String).utf8.count); return true }
        return { n in for i in 0..<n { address.street = streets[i & 3] } }
      },
    ]) }

  /// Distinct short strings, made once, so that sets do not allocate.
  static let streets = ["1 Main St", "2 Side St", "3 High St", "4 Low St"]
}
