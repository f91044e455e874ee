#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// Standard input's terminal settings: raw mode while a line is edited, the original settings
/// at every other moment, including after a crash signal and across a suspend (Ctrl-Z).
///
/// Only the editor's one thread changes modes; the signal handlers read the saved settings,
/// which are written once, before any handler is installed.
enum Terminal {
  /// The settings to restore, saved by ``prepare()``.
  nonisolated(unsafe) private static var original = termios()
  /// Set by the SIGWINCH handler, cleared by ``takeResize()``.
  private static let resized = Atomic<Bool>(false)

  /// Saves the terminal's settings and installs the handlers that restore them (crash
  /// signals) and note resizes. Returns `false` if standard input is not a terminal.
  static func prepare() -> Bool {
    guard tcgetattr(0, &original) == 0 else { return false }
    for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGTERM, SIGHUP, SIGQUIT] {
      install(crash) { received in
        Terminal.restore()
        signal(received, SIG_DFL)
        raise(received)
      }
    }
    install(SIGWINCH) { _ in Terminal.resized.store(true, ordering: .relaxed) }
    return true
  }

  private static func install(_ number: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    // No SA_RESTART: a resize interrupts the read, so that the line is redrawn at once.
    action.sa_flags = 0
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

  /// Suspends the process as Ctrl-Z would, with the terminal restored meanwhile.
  static func suspend() {
    restore()
    raise(SIGTSTP)
    enterRawMode()
  }

  /// Whether the window was resized since the last call.
  static func takeResize() -> Bool {
    resized.exchange(false, ordering: .relaxed)
  }

  /// The terminal's width in columns (80 if it cannot be read).
  static var columns: Int {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
