extension Publisher where Failure == Never {
  /// Republishes every value into a `@Published` property, for as long as that property lives.
  ///
  ///     model.publisher(for: \.firstName).assign(to: &$firstName)
  ///
  /// No cancellable is returned: the subscription belongs to the property and ends when the
  /// property's owner is released; it holds only what the property sends through, so it never
  /// keeps the owner alive.
  @inlinable
  public func assign(to published: inout Published<Output>.Publisher) {
    let box = published.box
    let channel = box.channel
    let subscriber = Subscribers.Sink<Output, Never>(
      receiveCompletion: { _ in }, receiveValue: { channel.publish($0) })
    subscribe(subscriber)
    box.attach(AnyCancellable(subscriber))
  }
}
