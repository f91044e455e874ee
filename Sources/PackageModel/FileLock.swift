#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lock that makes editors of one package file take turns: a save holds it from reading the
/// file to the rename, and a load while it reads. Only those who may write the package can take
/// it, so that a program that may only read the package can never hold up its writers.
///
/// It is a lock file beside the package, `.NAME.package-editor-lock` (a name too long for that
/// gets `.package-editor-lock-` and a hash of it), locked with `flock`, created when taken and
/// removed when let go. Creating it needs the directory's write permission; it is made with no
/// read permission for anyone, and with write permission for whom the package gives it to: a
/// user who may only read the package can neither create it nor open it, so cannot lock it. (A
/// lock on the package itself would not do: anyone who can open a file can `flock` it, and a
/// read lock (`fcntl`) holds up a writer's.)
///
/// A save also holds the package's own write lock (see ``lockWrite(_:wait:)``): where no lock
/// file can be made (a directory the user may not write, where saves rewrite the package in
/// place), that lock alone makes writers take turns, and loads by users who cannot take the
/// lock file wait on it. A lock file another user planted in a sticky shared directory such as
/// `/tmp` is not used: only one that belongs to the user, to root, to the directory's or the
/// package's owner, or to the package's group when that group may write the package.
///
/// A value: the one that took the lock lets it go with ``release()``.
struct FileLock {
  /// The lock file, open and locked, and its name; `nil` when there is none.
  private let lockFile: (descriptor: Int32, path: String)?

  /// The name of the lock file of the package `target` (a name that is not a symbolic link).
  static func path(for target: String) -> String {
    let directory = FileSystem.directoryPrefix(of: target)
    let name = target.dropFirst(directory.count)
    let lockName = "." + name + ".package-editor-lock"
    guard lockName.utf8.count > 255 else { return directory + lockName }
    // FNV-1a: the same hash in every process, unlike Swift's seeded hashing.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digits = String(hash, radix: 16)
    return directory + ".package-editor-lock-" + String(repeating: "0", count: 16 - digits.count)
      + digits
  }

  /// Takes the lock of the package `target` (a name that is not a symbolic link, whether or not
  /// a file is there), waiting up to `wait` seconds for another program that holds it. Without
  /// a lock file (none can be made or opened here, or one was planted), the lock holds nothing.
  /// - Throws: ``FileSystem/Failure`` naming the program that still holds it after `wait`.
  static func acquire(_ target: String, wait: Double) throws(FileSystem.Failure) -> FileLock {
    let path = path(for: target)
    var waited = 0.0
    while true {
      guard let (descriptor, created) = openOrCreate(path) else { return FileLock(lockFile: nil) }
      var info = stat()
      guard fstat(descriptor, &info) == 0, FileSystem.isRegular(info.st_mode),
        created || isTrusted(info, beside: target)
      else {
        close(descriptor)
        return FileLock(lockFile: nil)
      }
      if created { setPermissions(descriptor, for: target) }
      while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
        guard errno == EWOULDBLOCK || errno == EINTR else {
          // A file system without locks: the lock file cannot lock anything.
          close(descriptor)
          return FileLock(lockFile: nil)
        }
        guard waited < wait else {
          let holder = holderDescription(of: info)
          close(descriptor)
          throw FileSystem.Failure(
            "\(holder ?? "another program") holds its lock (\(path)) and did not let go in \(seconds(wait)) seconds"
          )
        }
        pause()
        waited += 0.01
      }
      // The editor that held it removed it as it let go: take the one at the name now.
      var named = stat()
      if lstat(path, &named) == 0, named.st_dev == info.st_dev, named.st_ino == info.st_ino {
        return FileLock(lockFile: (descriptor, path))
      }
      close(descriptor)
    }
  }

  /// Lets go of the lock, removing the lock file (if it is still the one at its name), so that
  /// none is left behind. An editor waiting for it then finds that it no longer is the file at
  /// the name, and takes a new one.
  func release() {
    guard let (descriptor, path) = lockFile else { return }
    var held = stat()
    var named = stat()
    if fstat(descriptor, &held) == 0, lstat(path, &named) == 0, held.st_dev == named.st_dev,
      held.st_ino == named.st_ino
    {
      unlink(path)
    }
    close(descriptor)
  }

  /// Opens the lock file at `path` for writing, creating it if there is none; `nil` if it can
  /// be neither opened nor created (no permission, a read-only file system, a symbolic link).
  private static func openOrCreate(_ path: String) -> (descriptor: Int32, created: Bool)? {
    let flags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
    for _ in 0..<100 {
      let descriptor = open(path, flags)
      if descriptor >= 0 { return (descriptor, false) }
      guard errno == ENOENT else { return nil }
      let made = open(path, flags | O_CREAT | O_EXCL, 0o200)
      if made >= 0 { return (made, true) }
      guard errno == EEXIST else { return nil }  // Made by another meanwhile: open that one.
    }
    return nil
  }

  /// Gives a new lock file no read permission, and write permission for whom the package gives
  /// it to (its owner only, for a new package), with the package's group.
  private static func setPermissions(_ descriptor: Int32, for target: String) {
    var package = stat()
    guard lstat(target, &package) == 0 else { return }
    _ = fchown(descriptor, uid_t.max, package.st_gid)  // Allowed only in that group: may fail.
    _ = fchmod(descriptor, 0o200 | (package.st_mode & 0o022))
  }

  /// Whether the lock file `lock` beside `target` may be used: outside a sticky directory,
  /// whoever could make it could also replace the package; in one, it must belong to the
  /// user, root, the directory's or the package's owner, or the package's group when that
  /// group may write the package.
  private static func isTrusted(_ lock: stat, beside target: String) -> Bool {
    let directoryPath = FileSystem.directoryPrefix(of: target)
    var directory = stat()
    guard stat(directoryPath.isEmpty ? "." : directoryPath, &directory) == 0 else { return false }
    guard directory.st_mode & S_ISVTX != 0 else { return true }
    if [geteuid(), 0, directory.st_uid].contains(lock.st_uid) { return true }
    var package = stat()
    guard lstat(target, &package) == 0 else { return false }
    return lock.st_uid == package.st_uid
      || (package.st_mode & 0o020 != 0 && lock.st_gid == package.st_gid)
  }

  /// `wait` as a message says it: `5`, `0.05`.
  static func seconds(_ wait: Double) -> String {
    wait == wait.rounded() && abs(wait) < 1e9 ? String(Int(wait)) : String(wait)
  }

  /// Waits a hundredth of a second between tries.
  static func pause() {
    var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
    nanosleep(&pause, nil)
  }
}
