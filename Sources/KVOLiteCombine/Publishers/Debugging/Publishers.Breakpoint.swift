#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Publishers {
  /// A publisher that stops the process in the debugger when one of its closures returns
  /// `true`: it raises `SIGTRAP` (with no debugger attached, that ends the process, even where
  /// a handler such as Swift's backtracer intercepts the signal), then passes the event on.
  ///
  /// It passes upstream's subscription straight downstream, as Combine's does; its subscriber
  /// describes itself as "Breakpoint".
  public struct Breakpoint<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are checked.
    public let upstream: Upstream
    /// Called with upstream's subscription; `true` stops in the debugger.
    public let receiveSubscription: ((any Subscription) -> Bool)?
    /// Called with each value; `true` stops in the debugger.
    public let receiveOutput: ((Upstream.Output) -> Bool)?
    /// Called with the completion; `true` stops in the debugger.
    public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

    /// A publisher that checks `upstream`'s events with the given closures.
    public init(
      upstream: Upstream, receiveSubscription: ((any Subscription) -> Bool)? = nil,
      receiveOutput: ((Upstream.Output) -> Bool)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        BreakpointSide<Upstream, S>(
          receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
          receiveCompletion: receiveCompletion, downstream: subscriber))
    }
  }
}

/// The subscriber of ``Publishers/Breakpoint``: checks each event, then forwards it.
private struct BreakpointSide<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  // The closures, not the `Breakpoint` publisher: a subscription does not keep the upstream
  // publisher alive.
  let receiveSubscription: ((any Subscription) -> Bool)?
  let receiveOutput: ((Upstream.Output) -> Bool)?
  let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
  let downstream: Downstream
  let combineIdentifier = CombineIdentifier()

  func receive(subscription: any Subscription) {
    if receiveSubscription?(subscription) == true { stopInDebugger() }
    downstream.receive(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    if receiveOutput?(input) == true { stopInDebugger() }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    if receiveCompletion?(completion) == true { stopInDebugger() }
    downstream.receive(completion: completion)
  }

  var description: String { "Breakpoint" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

/// Raises `SIGTRAP`: a debugger stops here; without one, the process ends, as it does under
/// Combine.
///
/// A handler can intercept `SIGTRAP` and return (Swift's backtracer does, on Linux, by
/// default: it prints a crash report and lets the program go on); then, with no debugger
/// attached, the signal's default action is restored and the signal raised again, so that the
/// process ends as it would have.
private func stopInDebugger() {
  raise(SIGTRAP)
  guard !debuggerAttached else { return }
  signal(SIGTRAP, SIG_DFL)
  raise(SIGTRAP)
}

/// Whether a debugger (a tracer) is attached to the process: on Linux, the `TracerPid` that
/// `/proc/self/status` shows is not 0. Elsewhere, assumed (the first `raise` is all there is).
private var debuggerAttached: Bool {
  #if os(Linux) || os(Android)
    let file = open("/proc/self/status", O_RDONLY)
    guard file >= 0 else { return true }
    defer { close(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    let status = String(decoding: bytes, as: UTF8.self)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") })
    else { return true }
    return line.dropFirst("TracerPid:".count).trimmingPrefix(while: \.isWhitespace) != "0"
  #else
    return true
  #endif
}

extension Publisher {
  /// Stops the process in the debugger when a closure returns `true` for an event: Combine's
  /// `breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)`.
  public func breakpoint(
    receiveSubscription: ((any Subscription) -> Bool)? = nil,
    receiveOutput: ((Output) -> Bool)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
  ) -> Publishers.Breakpoint<Self> {
    Publishers.Breakpoint(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion)
  }

  /// Stops the process in the debugger when the publisher fails.
  public func breakpointOnError() -> Publishers.Breakpoint<Self> {
    breakpoint(receiveCompletion: { completion in
      if case .failure = completion { return true }
      return false
    })
  }
}
