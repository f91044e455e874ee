import Foundation

/// A decoder of a whole value from one input, such as `JSONDecoder` from `Data`: Combine's
/// `TopLevelDecoder`, used by ``Publisher/decode(type:decoder:)``.
public protocol TopLevelDecoder<Input> {
  /// What the decoder reads.
  associatedtype Input
  /// Decodes a `T` from `from`.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

/// An encoder of a whole value into one output, such as `JSONEncoder` into `Data`: Combine's
/// `TopLevelEncoder`, used by ``Publisher/encode(encoder:)``.
public protocol TopLevelEncoder<Output> {
  /// What the encoder produces.
  associatedtype Output
  /// Encodes `value`.
  func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONDecoder: TopLevelDecoder {}
extension JSONEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}
