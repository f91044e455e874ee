// A stand-in for KVOLite's Combine as it would be without `@_disfavoredOverload`: one member
// that Apple added after Combine's first release (`values`), declared plainly. It depends on
// nothing, so that the check of why the attribute is needed builds no KVOLite.
// StandInBackfill declares the same member, as a library written for Combine's first release
// does; a file that sees both (Ambiguity/UsesBothValues.swift, which .ci/run compiles against
// the two modules) must fail to build with the ambiguity diagnostic.

/// A stand-in for Combine's `Publisher`: what it publishes, all at once.
public protocol Publisher<Output> {
  /// The kind of values published.
  associatedtype Output
  /// The kind of errors published.
  associatedtype Failure: Error
  /// Every value the publisher publishes.
  var outputs: [Output] { get }
}

/// A stand-in for Combine's `Just`: one value, then the end.
public struct Just<Output>: Publisher {
  /// It never fails.
  public typealias Failure = Never
  /// The one value.
  public let outputs: [Output]

  /// A publisher of `output`.
  public init(_ output: Output) { outputs = [output] }
}

extension Publisher where Failure == Never {
  /// The values, as the stand-in's own member (not disfavored: the point of the check).
  public var values: [Output] { outputs }
}
