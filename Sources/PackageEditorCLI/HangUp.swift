import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Notices a hang-up (`SIGHUP`: the terminal went away) or a request to end (`SIGTERM`), so
/// that the editor can save unsaved changes to a recovery file instead of dying with them.
///
/// The handler only sets a flag and writes a byte to a pipe (the self-pipe trick: the signal
/// may reach any thread, so it cannot be relied on to interrupt the editor's `read`); every
/// read of input polls that pipe beside its descriptor, and the command loop checks the flag
/// between commands.
enum HangUp {
  /// The signal that arrived (`SIGHUP` or `SIGTERM`), or 0.
  static let received = Atomic<Int32>(0)

  /// Whether a hang-up (or a request to end) arrived.
  static var happened: Bool { received.load(ordering: .sequentiallyConsistent) != 0 }
  /// The pipe the handler writes to; written once, before the handler is installed.
  nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)

  /// Installs the handler. Call once, at start, before reading anything.
  static func install() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    pipeEnds = (ends[0], ends[1])
    _ = received.load(ordering: .relaxed)  // Initialized now, not first in the handler.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { number in
      let saved = errno
      HangUp.received.store(number, ordering: .sequentiallyConsistent)
      var byte: UInt8 = 1
      _ = write(HangUp.pipeEnds.write, &byte, 1)
      Terminal.restoreIfPrepared()
      errno = saved
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0  // No SA_RESTART: a read in progress on this thread returns EINTR.
    sigaction(SIGHUP, &action, nil)
    sigaction(SIGTERM, &action, nil)
  }

  /// The descriptor a reader polls beside its input (-1, which poll ignores, if none).
  static var descriptor: Int32 { pipeEnds.read }

  /// Waits until `input` can be read or a hang-up arrives; `false` for a hang-up.
  static func waitForInput(_ input: Int32) -> Bool {
    var descriptors = [
      pollfd(fd: input, events: Int16(POLLIN), revents: 0),
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      if happened { return false }
      if poll(&descriptors, 2, -1) >= 0 || errno != EINTR { break }
    }
    return !happened
  }
}
