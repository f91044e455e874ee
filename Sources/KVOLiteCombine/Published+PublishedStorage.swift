/// What the synthesized `objectWillChange` needs of a ``Published`` property.
protocol PublishedStorage {
  var installedObjectWillChange: ObservableObjectPublisher? { get }
  func install(_ publisher: ObservableObjectPublisher)
}

extension Published: PublishedStorage {
  var installedObjectWillChange: ObservableObjectPublisher? { box.objectWillChange }
  func install(_ publisher: ObservableObjectPublisher) { box.objectWillChange = publisher }
}
