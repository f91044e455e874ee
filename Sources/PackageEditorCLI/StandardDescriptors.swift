#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input, output and error as the editor found them when it started.
///
/// A program started with one of them closed (`package-editor <&-`) would get that number for
/// the next file it opens: the editor's signal pipe became standard input, and the editor
/// waited on itself for ever. So each closed one is first opened on `/dev/null`, which keeps
/// the numbers 0–2 taken, and the editor remembers which were closed: reading a closed
/// standard input, or writing a closed standard output, is an error as it was before
/// (`bad file descriptor`, status 1), not an empty input or a silent success.
enum StandardDescriptors {
  /// Opens `/dev/null` on each of the descriptors 0, 1 and 2 that is closed, and returns
  /// those. Call it first, before anything opens a file.
  static func reopenClosed() -> Set<Int32> {
    var closed: Set<Int32> = []
    for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      // `open` takes the lowest free number: this one, since those below it are open.
      let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if opened >= 0, opened != descriptor {
        _ = dup2(opened, descriptor)
        close(opened)
      }
      closed.insert(descriptor)
    }
    return closed
  }

  /// The message of a closed descriptor's error, as the C library gives it.
  static let closedReason = String(cString: strerror(EBADF))
}
