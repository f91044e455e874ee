// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Test helpers: each type says what it is for; its members are named for what they do.
import KVOLiteCombine

extension Publisher {
  /// Everything a subscriber with unlimited demand receives, as text: the values, then
  /// "finished" or "failure(…)". For publishers that answer synchronously, such as the
  /// specialized operators of `Just`, `Optional.Publisher` and `Result.Publisher`.
  public func outcome() -> [String] {
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
