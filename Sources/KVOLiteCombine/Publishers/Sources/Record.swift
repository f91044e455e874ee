import KVOLiteLocking

/// A publisher that replays a recorded series of values and a completion to each subscriber,
/// within its demand.
///
///     let record = Record<Int, Never> { recording in
///       recording.receive(1)
///       recording.receive(2)
///       recording.receive(completion: .finished)
///     }
public struct Record<Output, Failure: Error>: Publisher {
  /// A recorded series of values and its completion.
  public struct Recording {
    /// The values, in order.
    public private(set) var output: [Output]
    /// The completion; `.finished` until one is recorded.
    public private(set) var completion: Subscribers.Completion<Failure>
    private var isComplete = false

    /// An empty recording, to be filled with ``receive(_:)`` and ``receive(completion:)``.
    public init() {
      output = []
      completion = .finished
    }

    /// A finished recording of `output` and `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
      self.output = output
      self.completion = completion
      isComplete = true
    }

    /// Records a value.
    /// - Precondition: no completion has been recorded yet.
    public mutating func receive(_ input: Output) {
      require(!isComplete, "a value cannot be recorded after the completion")
      output.append(input)
    }

    /// Records the completion.
    /// - Precondition: no completion has been recorded yet.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      require(!isComplete, "a recording has one completion")
      self.completion = completion
      isComplete = true
    }
  }

  /// What is replayed.
  public let recording: Recording

  /// A publisher replaying `recording`.
  public init(recording: Recording) {
    self.recording = recording
  }

  /// A publisher replaying `output`, then `completion`.
  public init(output: [Output], completion: Subscribers.Completion<Failure>) {
    recording = Recording(output: output, completion: completion)
  }

  /// A publisher replaying what `record` records (a missing completion is `.finished`).
  public init(record: (inout Recording) -> Void) {
    var recording = Recording()
    record(&recording)
    self.recording = recording
  }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then the recorded completion (right after the last value), as
  /// ``Publisher/receive(subscriber:)`` states.
  ///
  /// As in Combine, a recording without values hands the subscriber an empty subscription and
  /// its completion at once; otherwise the subscription describes itself by the values
  /// (`[1, 2, 3]`), and as "Cancelled Events" once it has ended.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    guard !recording.output.isEmpty else {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: recording.completion)
      return
    }
    subscriber.receive(
      subscription: SequenceSubscription(
        downstream: subscriber, sequence: recording.output, completion: recording.completion,
        endedDescription: "Cancelled Events", reflectsCompletion: true))
  }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
  private enum CodingKeys: String, CodingKey {
    case output
    case completion
  }

  /// Encodes the values and the completion (as ``encode(into:)`` does).
  public func encode(to encoder: any Encoder) throws {
    try encode(into: encoder)
  }

  /// Encodes the values, then the completion, under the keys `output` and `completion`.
  public func encode(into encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(output, forKey: .output)
    try container.encode(completion, forKey: .completion)
  }

  /// Decodes a finished recording.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      output: try container.decode([Output].self, forKey: .output),
      completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
  }
}

extension Record: Codable where Output: Codable, Failure: Codable {}
