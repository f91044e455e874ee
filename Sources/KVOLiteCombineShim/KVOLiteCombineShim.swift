// Combine on every platform: Apple's Combine where it exists, and elsewhere KVOLite's
// (KVOLiteCombine, with KVOLiteCombineFoundation's schedulers and Foundation publishers).
// Code written against this module builds unchanged on both. Apple's platforms are told apart
// with `canImport(Darwin)`: `canImport(Combine)` would also see KVOLite's own module named
// Combine (the `Combine` product's), wherever it has been built. URLSession's publisher is
// re-exported only under the package trait URLSessionPublishers, so that an app that loads no
// URL links no FoundationNetworking (see Package.swift); otherwise import
// KVOLiteCombineNetworking where it is used.

#if canImport(Darwin)
  @_exported import Combine
#else
  @_exported import KVOLiteCombine
  @_exported import KVOLiteCombineFoundation
  #if URLSessionPublishers
    @_exported import KVOLiteCombineNetworking
  #endif
#endif
