import Foundation
import KVOLiteLocking
import Synchronization

/// An observation that follows the elements of to-many relationships (``ElementObservation``,
/// ``AggregateObservation``) and takes the changes it hears of one at a time, in order.
///
/// What it hears of — a relationship changed, an element's key changed, something else the
/// value depends on changed — arrives from other observations, on the threads that made the
/// changes, in any order. So that its handler sees one consistent story, the changes are
/// *reserved* in a queue as they arrive, then taken in turn by one thread at a time:
///
/// - **Reserve, then read.** A change takes its place in the queue first; only then is what it
///   carries read (a relationship's elements, on the changing thread; an element's value, when
///   taken). So the last change reserved reads the model after every change, and once the
///   threads that change the model are done, the state the handler was told of is the
///   model's, whatever order the changes arrived in.
/// - **One thread takes changes.** The first thread to find no one taking changes takes them
///   all (those other threads reserve meanwhile too), then leaves. Nobody waits: a thread that
///   finds another one taking changes leaves its change to it and returns. The handler is
///   never called on two threads at once. A change made inside the handler is taken at once,
///   depth-first, on the same thread (its own reads are done first).
/// - **Collect, unlock, call.** One lock guards the queue and the state; reads, registrations
///   and the handler run without it.
///
/// Ending (``invalidate()``) empties the queue and ends every observation it holds; a call in
/// progress on another thread is waited for (as ``ObservationToken/invalidate()`` describes),
/// and nothing is called after.
class SerialObservation: Observation, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`, or atomic (`calls`).
  let lock = Lock()
  /// Changes reserved and not taken yet, oldest first from `head`; `nil` until the reserving
  /// thread has read what the change carries. Taken ones are cleared, and the array compacted
  /// when half of it is taken, so that taking one is O(1) amortized.
  private var pending: [FollowedChange?] = []
  private var head = 0
  /// The place of `pending[head]`: places count every reservation.
  private var headPlace = 0
  /// The thread taking changes, if any.
  private var taker: UInt?
  /// Whether the taker is calling the handler (a change made in there is taken at once).
  private var isCalling = false
  /// Set once, by ``invalidate()``. Guarded by `lock`.
  private(set) var isEnded = false
  /// Calls of the handler in progress, for ``invalidate()`` to wait for.
  private let calls = Atomic<Int>(0)
  /// The relationships followed, and what is known of their elements. Guarded by `lock`.
  var memberships: [ElementMembership]
  /// The observations this one is made of (of relationships, of other keys). Guarded by
  /// `lock`.
  private var sources: [ObservationToken] = []
  /// The observed object, weakly: once it is gone, nothing more is delivered.
  private(set) weak var root: AnyObject?
  /// What is asked of each element's observation: ``ObservingOptions/prior`` if asked, and
  /// ``ObservingOptions/takesChangesInFlight``, as of every observation this one places.
  let elementOptions: ObservingOptions

  init(root: AnyObject, memberships: [ElementMembership], options: ObservingOptions) {
    self.root = root
    self.memberships = memberships
    elementOptions = options.intersection(.prior).union(.takesChangesInFlight)
  }

  /// Takes one change, on the thread taking changes, with no lock held. Override.
  func process(_ change: FollowedChange) {}

  /// Whether an element key that is read-only (a `let`, which never changes) is followed
  /// through the relationship only, rather than refused as a key that does not notify.
  var acceptsReadOnlyKeys: Bool { false }

  // MARK: - The queue

  /// Takes a place for a change in the queue; `nil` once ended.
  final func reserve() -> Int? {
    lock.withLock {
      guard !isEnded else { return nil }
      pending.append(nil)
      return headPlace + pending.count - 1 - head
    }
  }

  /// Puts `change` in its place, then takes the changes that are ready, if no one else does.
  final func fill(_ place: Int, with change: FollowedChange) {
    lock.withLock {
      let index = head + place - headPlace
      // Dropped by the start or by the end otherwise.
      if place >= headPlace, index < pending.count { pending[index] = change }
    }
    take()
  }

  /// The first change if it is ready, taken out of the queue. Call with the lock held.
  private func takeFirst() -> FollowedChange? {
    guard head < pending.count, let change = pending[head] else { return nil }
    pending[head] = nil
    head += 1
    headPlace += 1
    if head == pending.count {
      pending.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= pending.count {
      pending.removeFirst(head)
      head = 0
    }
    return change
  }

  /// Reserves a place for `change`, which carries everything already, and takes the changes.
  final func submit(_ change: FollowedChange) {
    guard let place = reserve() else { return }
    fill(place, with: change)
  }

  /// Takes the changes that are ready, unless another thread does, or this one does already
  /// outside a call of the handler (then it goes on with them when it is done).
  final func take() {
    let me = currentThreadID()
    let nested: Bool? = lock.withLock {
      guard !isEnded else { return nil }
      guard let taker else {
        self.taker = me
        return false
      }
      guard taker == me, isCalling else { return nil }
      isCalling = false
      return true
    }
    guard let nested else { return }
    takeReady(nested: nested)
  }

  /// Takes ready changes in order until none is ready, then lets go (or goes back to the call
  /// it is nested in).
  private func takeReady(nested: Bool) {
    while let change = lock.withLock({ () -> FollowedChange? in
      if !isEnded, let change = takeFirst() { return change }
      if nested { isCalling = true } else { taker = nil }
      return nil
    }) {
      process(change)
    }
  }

  /// Calls the handler through `body`, unless the observation ended; counted, so that
  /// ``invalidate()`` can wait for it.
  final func call(_ body: () -> Void) {
    let proceeds = lock.withLock {
      guard !isEnded else { return false }
      isCalling = true
      calls.add(1, ordering: .relaxed)
      return true
    }
    guard proceeds else { return }
    DeliveryScope.run(body)
    lock.withLock { isCalling = false }
    calls.subtract(1, ordering: .releasing)
  }

  // MARK: - Starting and ending

  /// Makes the calling thread take changes while the observation starts, so that changes
  /// heard of meanwhile wait for the start to finish. Call ``finishStart()`` after.
  final func beginStart() {
    lock.withLock { taker = currentThreadID() }
  }

  /// Drops the changes heard of so far: the start reads the model after them.
  final func dropPending() {
    let dropped = lock.withLock { dropAll() }
    withExtendedLifetime(dropped) {}
  }

  /// Empties the queue; returns what it held, to release after unlocking. Call with the lock
  /// held.
  private func dropAll() -> [FollowedChange?] {
    defer {
      headPlace += pending.count - head
      pending = []
      head = 0
    }
    return pending
  }

  /// Takes the changes heard of during the start, then lets go.
  final func finishStart() {
    takeReady(nested: false)
  }

  /// Keeps `token` as a part of this observation, ended with it (at once if it has ended).
  final func keep(_ token: ObservationToken) {
    let kept = lock.withLock {
      guard !isEnded else { return false }
      sources.append(token)
      return true
    }
    if !kept { token.invalidate() }
  }

  override func invalidate() {
    let (tokens, dropped) = lock.withLock { () -> ([ObservationToken], [FollowedChange?]) in
      guard !isEnded else { return ([], []) }
      isEnded = true
      var tokens = sources
      for index in memberships.indices { tokens += memberships[index].endAll() }
      sources = []
      return (tokens, dropAll())
    }
    // After unlocking: ending them may wait for their deliveries, and releases may run deinits.
    for token in tokens { token.invalidate() }
    withExtendedLifetime(dropped) {}
    // A call in progress on another thread is waited for, unless this thread is delivering
    // (it might be waited for in turn), as for every token.
    if !DeliveryScope.isDelivering {
      Parking.wait { calls.load(ordering: .acquiring) == 0 }
    }
  }
}
