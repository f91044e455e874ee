/// An encoder of a whole value into one output, such as `JSONEncoder` into `Data`: Combine's
/// `TopLevelEncoder`, used by ``Publisher/encode(encoder:)``.
public protocol TopLevelEncoder<Output> {
  /// What the encoder produces.
  associatedtype Output
  /// Encodes `value`.
  func encode<T: Encodable>(_ value: T) throws -> Output
}
