/// A decoder of a whole value from one input, such as `JSONDecoder` from `Data`: Combine's
/// `TopLevelDecoder`, used by ``Publisher/decode(type:decoder:)``.
public protocol TopLevelDecoder<Input> {
  /// What the decoder reads.
  associatedtype Input
  /// Decodes a `T` from `from`.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
