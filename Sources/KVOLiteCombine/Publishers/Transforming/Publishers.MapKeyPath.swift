extension Publishers {
  /// A publisher of the value at a key path of each upstream value: what `map(\.name)` makes.
  ///
  /// It passes upstream's subscription straight downstream, as Combine's does; its subscriber
  /// describes itself as "ValueForKey", with the key path in its mirror.
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are read.
    public let upstream: Upstream
    /// Where to read each value.
    public let keyPath: KeyPath<Upstream.Output, Output>

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let keyPath = self.keyPath
      upstream.subscribe(
        KeyPathSide<Upstream.Output, Failure, S>(
          downstream: subscriber, name: "ValueForKey", mirror: ["keyPath": keyPath],
          project: { $0[keyPath: keyPath] }))
    }
  }

  /// A publisher of the values at two key paths of each upstream value, as a tuple: what
  /// `map(\.a, \.b)` makes. Pass-through; its subscriber describes itself as "ValueForKeys".
  public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = (Output0, Output1)
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are read.
    public let upstream: Upstream
    /// Where to read the first element.
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    /// Where to read the second element.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
      upstream.subscribe(
        KeyPathSide<Upstream.Output, Failure, S>(
          downstream: subscriber, name: "ValueForKeys",
          mirror: ["keyPath0": keyPath0, "keyPath1": keyPath1],
          project: { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) }))
    }
  }

  /// A publisher of the values at three key paths of each upstream value, as a tuple: what
  /// `map(\.a, \.b, \.c)` makes. Pass-through; its subscriber describes itself as
  /// "ValueForKeys".
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = (Output0, Output1, Output2)
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are read.
    public let upstream: Upstream
    /// Where to read the first element.
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    /// Where to read the second element.
    public let keyPath1: KeyPath<Upstream.Output, Output1>
    /// Where to read the third element.
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
      upstream.subscribe(
        KeyPathSide<Upstream.Output, Failure, S>(
          downstream: subscriber, name: "ValueForKeys",
          mirror: ["keyPath0": keyPath0, "keyPath1": keyPath1, "keyPath2": keyPath2],
          project: { ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2]) }))
    }
  }
}

/// The pass-through subscriber of the key-path maps: reads, then forwards.
private struct KeyPathSide<Input, Failure: Error, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == Failure {
  let downstream: Downstream
  let name: String
  let mirror: KeyValuePairs<String, Any>
  let project: (Input) -> Downstream.Input
  let combineIdentifier = CombineIdentifier()

  func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
  func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(project(input)) }
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  var description: String { name }
  var customMirror: Mirror { Mirror(self, children: mirror) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// The value at `keyPath` of each value: Combine's `map(_:)` for a key path.
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }

  /// The values at two key paths of each value, as a tuple.
  public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>)
    -> Publishers.MapKeyPath2<Self, T0, T1>
  {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }

  /// The values at three key paths of each value, as a tuple.
  public func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>,
    _ keyPath2: KeyPath<Output, T2>
  ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
    Publishers.MapKeyPath3(
      upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}
