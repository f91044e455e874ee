import StandInCombine

// The user's library: it backfills `values` as libraries written for Combine's first release
// do (see MyLibrary/Backfills.swift). It builds: inside its own module its declaration shadows
// the imported one. A module that imports both cannot call either (Ambiguity/).

extension Publisher where Failure == Never {
  /// The values (the library's backfill).
  @available(OSX, obsoleted: 12.0)
  @available(iOS, obsoleted: 15.0)
  public var values: [Output] { outputs }
}
