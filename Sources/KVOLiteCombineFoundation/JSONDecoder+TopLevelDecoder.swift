// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Foundation
  import KVOLiteCombine

  extension JSONDecoder: TopLevelDecoder {}
  extension JSONEncoder: TopLevelEncoder {}
  extension PropertyListDecoder: TopLevelDecoder {}
  extension PropertyListEncoder: TopLevelEncoder {}
#endif
