#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The editor's state directory (`$XDG_STATE_HOME/package-editor`), opened so that no other
/// user can read what the editor writes there or make it write elsewhere.
///
/// `XDG_STATE_HOME` may be shared (a sticky, world-writable directory), so the directory is
/// checked before anything is written in it: it must be a real directory (not a link) that
/// the user owns, and private (a `0755` or `0777` one of the user's is tightened to `0700`). A
/// file is created in it through the directory's descriptor, exclusively, never following a
/// link, and private from the start (`O_CREAT | O_EXCL | O_NOFOLLOW`, `0600`); a name that is
/// taken (by a planted link, or by another editor's file of the same second and process
/// number, as in two containers) is skipped for the next suffix.
enum StateDirectory {
  /// Why the directory or a file in it cannot be used.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Opens `path`, creating it and its missing parents (`0700`) if needed, and checks it as
  /// described above. Returns its descriptor (the caller closes it).
  static func openChecked(_ path: String) throws(Failure) -> Int32 {
    if let failure = History.makeDirectory(path) {
      throw Failure(description: "cannot create \(path): \(failure)")
    }
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw Failure(
        description: errno == ELOOP || errno == ENOTDIR
          ? "\(path) is not a directory of its own (a symbolic link?)"
          : "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_uid == geteuid() else {
      close(descriptor)
      throw Failure(description: "\(path) belongs to another user")
    }
    if info.st_mode & 0o077 != 0, fchmod(descriptor, info.st_mode & 0o700) != 0 {
      close(descriptor)
      throw Failure(description: "\(path) is open to other users and cannot be made private")
    }
    return descriptor
  }

  /// A new private directory for this run, in `$TMPDIR` or `/tmp` (`mkdtemp`), for when the
  /// state directory is refused. Returns its path and descriptor.
  static func makePrivate(in environment: [String: String]) throws(Failure) -> (String, Int32) {
    let base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    var template = Array((base + "/package-editor-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw Failure(description: "cannot create a private directory in \(base)")
    }
    let path = String(cString: made)
    return (path, try openChecked(path))
  }

  /// Creates a new file in the directory `descriptor`: `name` + `suffix`, or if that is taken,
  /// `name-2` + `suffix`, `name-3`… Returns the file's descriptor and name.
  static func createFile(in directory: Int32, name: String, suffix: String) throws(Failure)
    -> (Int32, String)
  {
    for attempt in 1...1000 {
      let candidate = name + (attempt == 1 ? "" : "-\(attempt)") + suffix
      let descriptor = openat(
        directory, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if descriptor >= 0 { return (descriptor, candidate) }
      guard errno == EEXIST else {
        throw Failure(
          description: "cannot create \(candidate): \(String(cString: strerror(errno)))")
      }
    }
    throw Failure(description: "cannot create a file named \(name)…: every name is taken")
  }
}
