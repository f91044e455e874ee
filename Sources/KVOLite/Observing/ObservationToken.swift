/// Keeps an observation alive; cancels it when invalidated or released.
///
/// Keep the token for as long as you want notifications: discarding it ends the observation at
/// once. ``invalidate()`` may be called any number of times, from any thread, from inside any
/// callback (the observation's own included) and from a `deinit`. After it returns, the
/// observation delivers nothing more, except a notification already being delivered on another
/// thread at that moment. When the observed object is released first, the token becomes inert.
///
/// The token retains the observation's handler (and so what the handler captures) until it is
/// released; it does not retain the observed object.
public final class ObservationToken: Sendable {
  @usableFromInline let observation: Observation

  @usableFromInline
  init(_ observation: Observation) {
    self.observation = observation
  }

  /// Ends the observation. Calling it again does nothing.
  public func invalidate() {
    observation.invalidate()
  }

  deinit {
    observation.invalidate()
  }
}
