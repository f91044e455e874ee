import KVOLiteLocking

/// Keeps an observation alive; ends it when invalidated or released.
///
/// Keep the token for as long as you want notifications: discarding it ends the observation at
/// once. ``invalidate()`` may be called any number of times, from any thread, from inside any
/// callback (the observation's own included) and from a `deinit`. When the observed object is
/// released first, the token becomes inert.
///
/// ## Invalidating while another thread delivers
///
/// When ``invalidate()`` returns, the handler is not running on any other thread and will not
/// be called again, so an owner that invalidates its token before going away may capture
/// itself `unowned` in the handler. To keep that promise, `invalidate()` waits for deliveries
/// of this observation that are in progress on other threads (usually a few instructions; as
/// long as the handler runs, otherwise). Two exceptions, which avoid deadlocks:
///
/// - Called from inside a delivery (any KVOLite handler, a Combine subscriber called with its
///   delivery lock held, or a `deinit` that one of them causes), it does not wait for other
///   threads: two threads, each delivering, could otherwise wait for each other (or the other
///   thread's delivery for the delivery lock this one holds). The observation delivers nothing
///   new after it returns, but a delivery already running on another thread may finish after
///   it. The same inside an in-place mutation of an ``Observed`` property (an element's
///   `deinit` that the mutation runs): a handler on another thread may be waiting to read that
///   property.
/// - It waits for handlers: do not call it while holding a lock that a handler of this
///   observation takes. A task's cancellation handler (`withTaskCancellationHandler`) runs
///   with the task locked, and a handler that resumes the task takes that lock: end the
///   observation from the task, after its await, not from the cancellation handler.
///
/// A `deinit` that invalidates runs after the object's last strong reference is gone, so a
/// handler running concurrently on another thread may already have failed to use an `unowned`
/// reference to it; capture `weak` there, or invalidate before releasing the object.
///
/// The token retains the observation's handler (and so what the handler captures) until it is
/// released; it does not retain the observed object.
public final class ObservationToken: Sendable {
  @usableFromInline let observation: Observation

  @usableFromInline
  init(_ observation: Observation) {
    self.observation = observation
  }

  /// Ends the observation; see the discussion of ``ObservationToken`` for what it waits for.
  /// Calling it again does nothing.
  public func invalidate() {
    observation.invalidate()
  }

  deinit {
    observation.invalidate()
  }
}
