#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The package's own write lock: a lock of an open file description (`F_OFD_SETLK`, Linux) on
/// the whole package, which only a descriptor open for writing can take. Saves hold it beside
/// the lock file, so that a writer who could not make a lock file (a directory it may not
/// write, where it rewrites the package in place) still takes turns with the others, and loads
/// wait while one is held. A read lock is never waited for: only a program that reads the
/// package holds one (editors never take one), and it must not hold up a writer.
extension FileLock {
  /// `F_OFD_GETLK` and `F_OFD_SETLK`, which the C library's module does not export (the same
  /// numbers on every Linux architecture).
  static let getOpenFileLock: Int32 = 36
  static let setOpenFileLock: Int32 = 37

  /// Takes the write lock of the package open for writing as `descriptor`, waiting up to `wait`
  /// seconds for another writer's; goes on without it while a reader's lock is in the way, or
  /// where there are no such locks.
  /// - Throws: ``FileSystem/Failure`` if another writer still holds it after `wait` seconds.
  static func lockWrite(_ descriptor: Int32, wait: Double) throws(FileSystem.Failure) {
    #if os(Linux)
      var waited = 0.0
      while true {
        var range = wholeFile(F_WRLCK)
        if fcntl(descriptor, setOpenFileLock, &range) == 0 { return }
        guard errno == EAGAIN || errno == EACCES || errno == EINTR else { return }
        switch try holder(descriptor, waited: &waited, wait: wait) {
        case .writer, .nobody: continue
        case .reader: return
        }
      }
    #endif
  }

  /// Waits up to `wait` seconds while another writer holds the write lock of the package open
  /// as `descriptor` (a save in progress), without taking any lock.
  /// - Throws: ``FileSystem/Failure`` if a writer still holds it after `wait` seconds.
  static func waitForWriters(_ descriptor: Int32, wait: Double) throws(FileSystem.Failure) {
    #if os(Linux)
      var waited = 0.0
      while try holder(descriptor, waited: &waited, wait: wait) == .writer {}
    #endif
  }

  #if os(Linux)
    /// Who holds a lock on the package open as `descriptor` that a write lock would meet.
    private enum Holder { case nobody, reader, writer }

    /// Who holds a lock on the package open as `descriptor`; if another writer does, waits a
    /// moment first (adding it to `waited`), or throws once `waited` reached `wait`.
    private static func holder(_ descriptor: Int32, waited: inout Double, wait: Double)
      throws(FileSystem.Failure) -> Holder
    {
      var probe = wholeFile(F_WRLCK)
      guard fcntl(descriptor, getOpenFileLock, &probe) == 0 else { return .reader }  // No locks.
      guard probe.l_type == F_WRLCK else { return probe.l_type == F_RDLCK ? .reader : .nobody }
      guard waited < wait else {
        var info = stat()
        let holder = fstat(descriptor, &info) == 0 ? holderDescription(of: info) : nil
        throw FileSystem.Failure(
          "\(holder ?? "another program") holds a lock on it and did not let go in \(seconds(wait)) seconds"
        )
      }
      pause()
      waited += 0.01
      return .writer
    }

    /// A lock of `type` on the whole file.
    private static func wholeFile(_ type: Int32) -> flock {
      var range = flock()
      range.l_type = Int16(type)
      range.l_whence = Int16(SEEK_SET)
      return range
    }
  #endif
}
