// swift-tools-version: 6.3
import PackageDescription

// One module per concern; dependencies point one way:
//
//   PackageEditorCLI -> PackageModel -> KVOLiteBridge -> KVOLite (KVO and KVC)
//                                                     -> KVOLiteCombineShim -> KVOLiteCombine
//                                                                           -> KVOLiteCombineFoundation
//                                                          (trait URLSessionPublishers) -> KVOLiteCombineNetworking
//
// KVOLiteCombineShim is Apple's Combine where it exists and KVOLiteCombine (with
// KVOLiteCombineFoundation) elsewhere; KVOLiteLocking is the one lock the modules share.
// CommandLineSupport (-> KVOLite, for its "did you mean") is what the three executables share of
// their command lines.
// The floors are those of Synchronization's `Atomic`, which KVOLite (its registrars, key tables
// and observations) and KVOLiteCombine (`CombineIdentifier`) use: macOS 15, iOS 18, tvOS 18,
// watchOS 11, visionOS 2, the systems that ship the Swift 6.0 runtime. Nothing else needs as
// much (Apple's Combine, which the shim re-exports there, dates from macOS 10.15 and iOS 13).

// A module named Combine (KVOLiteCombine and KVOLiteCombineFoundation re-exported), so that
// code written against Apple's Combine compiles unchanged, `import Combine` and
// `Combine.`-qualified names included. Only where Apple's Combine is absent: the `Combine`
// product depends on it under a platform condition, and on Apple hosts it is not declared at
// all, so that nothing there ever builds a module that would hide Apple's framework.
// Linux is the one such platform KVOLite supports: its lock and per-thread state are written for
// Linux and Apple's systems only (see the README's "Supported toolchain").
let platformsWithoutCombine: [Platform] = [.linux]

// URLSession's publisher (`dataTaskPublisher`) is a module of its own, KVOLiteCombineNetworking,
// because it needs FoundationNetworking, and through it libcurl: a binary that links it needs
// libcurl's shared library, and a static one its development files. So neither the shim (and
// KVOLiteBridge) nor the module named Combine brings it, unless the package that depends on
// KVOLite enables the trait URLSessionPublishers: then both re-export it, and code written for
// Apple's Combine that loads URLs compiles unchanged. Without the trait, depend on the
// `KVOLiteCombineNetworking` product and import it.
let urlSessionPublishers = "URLSessionPublishers"
let networkingDependency: Target.Dependency = .target(
  name: "KVOLiteCombineNetworking",
  condition: .when(platforms: platformsWithoutCombine, traits: [urlSessionPublishers]))

#if canImport(Darwin)
  let combineModule: [Target] = []
  let combineModuleDependency: [Target.Dependency] = []
#else
  let combineModule: [Target] = [
    .target(
      name: "Combine",
      dependencies: ["KVOLiteCombine", "KVOLiteCombineFoundation", networkingDependency])
  ]
  let combineModuleDependency: [Target.Dependency] = [
    .target(name: "Combine", condition: .when(platforms: platformsWithoutCombine))
  ]
#endif

let package = Package(
  name: "KVOLite",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "KVOLite", targets: ["KVOLite"]),
    .library(name: "KVOLiteCombine", targets: ["KVOLiteCombine"]),
    .library(name: "KVOLiteCombineFoundation", targets: ["KVOLiteCombineFoundation"]),
    .library(name: "KVOLiteCombineNetworking", targets: ["KVOLiteCombineNetworking"]),
    .library(name: "KVOLiteCombineShim", targets: ["KVOLiteCombineShim"]),
    .library(name: "Combine", targets: ["KVOLiteCombineProduct"]),
    .library(name: "KVOLiteBridge", targets: ["KVOLiteBridge"]),
    .library(name: "PackageModel", targets: ["PackageModel"]),
    .executable(name: "package-editor", targets: ["PackageEditorCLI"]),
    .executable(name: "kvolite-benchmarks", targets: ["KVOLiteBenchmarks"]),
    .executable(name: "kvolite-stress", targets: ["KVOLiteStress"]),
  ],
  traits: [
    .trait(
      name: urlSessionPublishers,
      description:
        "KVOLiteCombineShim, KVOLiteBridge and the module named Combine re-export URLSession's "
        + "publisher (KVOLiteCombineNetworking), and so link FoundationNetworking and libcurl")
  ],
  targets: [
    .target(name: "KVOLiteLockPrimitive"),
    .target(name: "KVOLiteLocking", dependencies: ["KVOLiteLockPrimitive"]),
    .target(name: "KVOLite", dependencies: ["KVOLiteLocking"]),
    .target(name: "KVOLiteCombine", dependencies: ["KVOLiteLocking"]),
    .target(name: "KVOLiteCombineFoundation", dependencies: ["KVOLiteCombine", "KVOLiteLocking"]),
    .target(name: "KVOLiteCombineNetworking", dependencies: ["KVOLiteCombine", "KVOLiteLocking"]),
    .target(
      name: "KVOLiteCombineShim",
      dependencies: ["KVOLiteCombine", "KVOLiteCombineFoundation", networkingDependency]),
    .target(name: "KVOLiteCombineProduct", dependencies: combineModuleDependency),
    .target(
      name: "KVOLiteBridge", dependencies: ["KVOLite", "KVOLiteCombineShim", "KVOLiteLocking"]),
    .target(name: "PackageModel", dependencies: ["KVOLite", "KVOLiteBridge"]),
    // What the three executables' command lines share: the version, option parsing, usage errors.
    .target(name: "CommandLineSupport", dependencies: ["KVOLite"]),
    .executableTarget(
      name: "PackageEditorCLI", dependencies: ["KVOLite", "PackageModel", "CommandLineSupport"]),
    .target(name: "CHeapStats"),
    .executableTarget(
      name: "KVOLiteBenchmarks",
      dependencies: [
        "KVOLite", "KVOLiteBridge", "PackageModel", "CHeapStats", "CommandLineSupport",
      ]),
    .executableTarget(
      name: "KVOLiteStress",
      dependencies: ["KVOLiteBridge", "KVOLiteTestSupport", "CommandLineSupport"]),

    // Commits each documented misuse on demand, for the check that their messages survive -O
    // (Scripts/check-release-diagnostics).
    .executableTarget(
      name: "DiagnosticsProbe", dependencies: ["KVOLiteBridge", "PackageModel"],
      path: "Tests/DiagnosticsProbe"),

    // Shared by the tests and the stress scenarios: one of each helper.
    .target(
      name: "KVOLiteTestSupport", dependencies: ["KVOLite", "KVOLiteCombine", "KVOLiteLocking"],
      path: "Tests/Support/KVOLiteTestSupport"),
    // A model built without reflection metadata, for the test that KVOLite says so.
    .target(
      name: "StrippedReflectionFixture", dependencies: ["KVOLite"],
      path: "Tests/Support/StrippedReflectionFixture",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-reflection-metadata"])]),
    // Another Combine implementation's names, for the test that the core does not clash.
    .target(name: "CombineStandIn", path: "Tests/Support/CombineStandIn"),

    .testTarget(
      name: "KVOLiteTests",
      dependencies: ["KVOLite", "KVOLiteTestSupport", "StrippedReflectionFixture"]),
    .testTarget(
      name: "KVOLiteCombineTests",
      dependencies: [
        "KVOLiteCombine", "KVOLiteCombineFoundation", "KVOLiteCombineNetworking",
        "KVOLiteTestSupport",
      ]),
    .testTarget(name: "KVOLiteCombineShimTests", dependencies: ["KVOLiteCombineShim"]),
    .testTarget(name: "KVOLiteBridgeTests", dependencies: ["KVOLiteBridge", "KVOLiteTestSupport"]),
    .testTarget(name: "ModuleSeparationTests", dependencies: ["KVOLite", "CombineStandIn"]),
    .testTarget(name: "PackageModelTests", dependencies: ["PackageModel", "KVOLiteTestSupport"]),
    .testTarget(
      name: "PackageEditorCLITests", dependencies: ["PackageEditorCLI", "KVOLiteTestSupport"]),
    .testTarget(name: "StressTests", dependencies: ["KVOLiteStress", "KVOLiteTestSupport"]),
    .testTarget(
      name: "CommandLineSupportTests", dependencies: ["CommandLineSupport", "KVOLiteTestSupport"]),
    .testTarget(
      name: "KVOLiteBenchmarksTests", dependencies: ["KVOLiteBenchmarks", "KVOLiteTestSupport"]),
  ] + combineModule,
  swiftLanguageModes: [.v6]
)
