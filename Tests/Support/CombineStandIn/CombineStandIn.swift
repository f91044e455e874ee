// A stand-in for another Combine implementation (Apple's Combine, OpenCombine): its three most
// common names, declared here so that a test can import it next to KVOLite's core and check
// that no name is ambiguous. Nothing here is meant to work.

/// Another implementation's `Publisher`.
public protocol Publisher {
  /// The kind of values it publishes.
  associatedtype Output
}

/// Another implementation's `AnyCancellable`.
public final class AnyCancellable {
  /// A cancellable that runs `cancel` when cancelled.
  public init(_ cancel: @escaping () -> Void) { self.cancelAction = cancel }
  private let cancelAction: () -> Void
  /// Cancels.
  public func cancel() { cancelAction() }
}

/// Another implementation's `ObservableObject`.
public protocol ObservableObject: AnyObject {}

/// Another implementation's `Published`.
@propertyWrapper
public struct Published<Value> {
  /// The value.
  public var wrappedValue: Value
  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}
