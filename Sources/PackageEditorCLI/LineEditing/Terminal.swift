import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input's terminal settings: raw mode while a line is edited, the original settings
/// at every other moment, including after a crash signal and across a suspend (Ctrl-Z).
///
/// Only the editor's one thread changes modes; the signal handlers read the saved settings,
/// which are written once, before any handler is installed.
enum Terminal {
  /// The settings to restore, saved by ``prepare()``.
  nonisolated(unsafe) private static var original = termios()
  /// A pipe the SIGWINCH handler writes a byte to (the self-pipe trick): the signal may be
  /// delivered to any of the process's threads, so it cannot be relied on to interrupt the
  /// editor's `read`; the editor polls this pipe next to standard input instead. Both ends
  /// are non-blocking and closed on exec; written once, before the handler is installed.
  nonisolated(unsafe) private static var resizePipe: (read: Int32, write: Int32) = (-1, -1)

  /// Saves the terminal's settings and installs the handlers that restore them (crash
  /// signals) and note resizes. Returns `false` if standard input is not a terminal.
  ///
  /// A hang-up or a request to end (`SIGHUP`, `SIGTERM`) is ``HangUp``'s to handle; it restores the terminal through
  /// ``restoreIfPrepared()``.
  static func prepare() -> Bool {
    guard tcgetattr(0, &original) == 0 else { return false }
    isPrepared.store(true, ordering: .sequentiallyConsistent)
    for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT] {
      install(crash) { received in
        Terminal.restore()
        signal(received, SIG_DFL)
        raise(received)
      }
    }
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
      resizePipe = (ends[0], ends[1])
      // A parent may have started us with signals blocked; resizes must get through.
      var winch = sigset_t()
      sigemptyset(&winch)
      sigaddset(&winch, SIGWINCH)
      pthread_sigmask(SIG_UNBLOCK, &winch, nil)
      install(SIGWINCH) { _ in
        let saved = errno
        var byte: UInt8 = 1
        _ = write(Terminal.resizePipe.write, &byte, 1)  // a full pipe already says "resized"
        errno = saved
      }
    }
    return true
  }

  private static func install(_ number: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(number, &action, nil)
  }

  /// Raw mode: no echo, no line buffering, no signals from keys (Ctrl-C and Ctrl-Z arrive as
  /// bytes), no flow control; output processing stays on.
  static func enterRawMode() {
    var raw = original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(0, TCSADRAIN, &raw)
  }

  /// The original settings again (async-signal-safe).
  static func restore() {
    tcsetattr(0, TCSADRAIN, &original)
  }

  /// Whether ``prepare()`` saved the settings.
  private static let isPrepared = Atomic<Bool>(false)

  /// ``restore()`` if ``prepare()`` saved the settings (async-signal-safe).
  static func restoreIfPrepared() {
    if isPrepared.load(ordering: .sequentiallyConsistent) { restore() }
  }

  /// Suspends the process as Ctrl-Z would, with the terminal restored meanwhile.
  static func suspend() {
    restore()
    raise(SIGTSTP)
    enterRawMode()
  }

  /// Waits until standard input can be read, the window is resized or a hang-up arrives (or
  /// `milliseconds` pass; -1 waits as long as it takes). Returns whether input is ready,
  /// whether the window was resized since the last call, and whether a hang-up arrived.
  static func wait(milliseconds: Int32 = -1) -> (input: Bool, resized: Bool, hangUp: Bool) {
    var descriptors = [
      pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
      pollfd(fd: resizePipe.read, events: Int16(POLLIN), revents: 0),
      pollfd(fd: HangUp.descriptor, events: Int16(POLLIN), revents: 0),
    ]
    while poll(&descriptors, 3, milliseconds) < 0, errno == EINTR {
      if HangUp.happened { break }
    }
    var resized = false
    if descriptors[1].revents & Int16(POLLIN) != 0 {
      var bytes = [UInt8](repeating: 0, count: 64)
      while read(resizePipe.read, &bytes, bytes.count) > 0 { resized = true }
    }
    return (
      descriptors[0].revents != 0, resized, HangUp.happened
    )
  }

  /// The terminal's width in columns (80 if it cannot be read).
  static var columns: Int {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
