// The module named Combine, on the platforms that have no Combine of Apple's: KVOLite's Combine
// (KVOLiteCombine, with KVOLiteCombineFoundation's schedulers and Foundation publishers) under
// Combine's own module name, so that `import Combine` and `Combine.`-qualified names compile
// unchanged. Depend on the `Combine` product, which brings this module only where Apple's
// Combine is absent; on Apple's platforms `import Combine` keeps importing Apple's framework.
// URLSession's publisher comes with it only under the package trait URLSessionPublishers, so
// that an app that loads no URL links no FoundationNetworking (see Package.swift).

@_exported import KVOLiteCombine
@_exported import KVOLiteCombineFoundation

#if URLSessionPublishers
  @_exported import KVOLiteCombineNetworking
#endif
