/// A type that has a ``CombineIdentifier``; classes get one from their identity.
public protocol CustomCombineIdentifierConvertible {
  /// The identifier of this subscriber or subscription.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// The identifier of the object's identity: equal for the same instance, as in Combine.
  public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
