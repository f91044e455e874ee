extension Publisher where Failure == Never {
  /// Republishes every value into a `@Published` property, for as long as that property lives.
  ///
  ///     model.publisher(for: \.firstName).assign(to: &$firstName)
  ///
  /// No cancellable is returned: the subscription belongs to the property and ends when the
  /// property's owner is released; it holds only what the property sends through, so it never
  /// keeps the owner alive.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
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
