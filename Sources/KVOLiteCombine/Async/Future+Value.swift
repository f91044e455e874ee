import KVOLiteLocking

extension Future where Failure == Never {
  /// The future's value, once its promise has been called: Combine's `Future.value`. Awaiting
  /// subscribes to the future (which keeps the awaiting task waiting until the promise is
  /// called; cancelling the task does not end the wait, as in Combine).
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public var value: Output {
    get async {
      await withCheckedContinuation { continuation in
        subscribe(FutureValueSubscriber<Output, Never> { continuation.resume(with: $0.value) })
      }
    }
  }
}

extension Future {
  /// The future's value, once its promise has been called, or its failure, thrown: Combine's
  /// `Future.value`. Awaiting subscribes to the future (see the non-throwing form).
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public var value: Output {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        subscribe(
          FutureValueSubscriber<Output, Failure> {
            continuation.resume(with: $0.value.mapError { $0 as any Error })
          })
      }
    }
  }
}

/// The subscriber behind ``Future/value``: asks for one value and hands the result (the value,
/// or the failure) to `resume`, once. Thread-safe: the closure is taken under a lock and called
/// after it.
private final class FutureValueSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // @unchecked: `resume` is taken once, under `lock`.
  private let lock = Lock()
  private var resume: ((UncheckedSendable<Result<Input, Failure>>) -> Void)?

  init(_ resume: @escaping (UncheckedSendable<Result<Input, Failure>>) -> Void) {
    self.resume = resume
  }

  func receive(subscription: any Subscription) { subscription.request(.max(1)) }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { resume.take() }?(UncheckedSendable(.success(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure(let error) = completion else { return }
    lock.withLock { resume.take() }?(UncheckedSendable(.failure(error)))
  }
}
