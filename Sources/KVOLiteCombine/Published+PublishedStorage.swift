/// What the synthesized `objectWillChange` needs of a ``Published`` property.
protocol PublishedStorage {
  /// Makes `publisher` the property's `objectWillChange` unless it has one; returns the one
  /// it has then.
  func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
}

extension Published: PublishedStorage {
  func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
    box.installObjectWillChange(publisher)
  }
}
