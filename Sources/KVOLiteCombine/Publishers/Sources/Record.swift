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
      precondition(!isComplete, "a value cannot be recorded after the completion")
      output.append(input)
    }

    /// Records the completion.
    /// - Precondition: no completion has been recorded yet.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      precondition(!isComplete, "a recording has one completion")
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
  /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let values = Publishers.Sequence<[Output], Failure>(sequence: recording.output)
    switch recording.completion {
    case .finished: values.subscribe(subscriber)
    case .failure(let error): values.append(Fail(error: error)).subscribe(subscriber)
    }
  }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
  private enum CodingKeys: String, CodingKey {
    case output
    case completion
  }

  /// Encodes the values and the completion.
  public func encode(to encoder: any Encoder) throws {
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
