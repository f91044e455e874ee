// Combine on every platform: Apple's Combine where it exists, and elsewhere KVOLite's
// (KVOLiteCombine, with KVOLiteCombineFoundation's schedulers and Foundation publishers).
// Code written against this module builds unchanged on both.

#if canImport(Combine)
  @_exported import Combine
#else
  @_exported import KVOLiteCombine
  @_exported import KVOLiteCombineFoundation
#endif
