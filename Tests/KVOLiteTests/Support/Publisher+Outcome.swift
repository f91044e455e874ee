import KVOLite

extension Publisher {
  /// Everything a subscriber with unlimited demand receives, as text: the values, then
  /// "finished" or "failure(…)". For publishers that answer synchronously, such as the
  /// specialized operators of `Just`, `Optional.Publisher` and `Result.Publisher`.
  func outcome() -> [String] {
    var events: [String] = []
    _ = sink(
      receiveCompletion: { completion in
        switch completion {
        case .finished: events.append("finished")
        case .failure(let error): events.append("failure(\(error))")
        }
      },
      receiveValue: { events.append("\($0)") })
    return events
  }
}
