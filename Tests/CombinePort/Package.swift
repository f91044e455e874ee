// swift-tools-version: 6.1
import PackageDescription

// A package that depends on KVOLite's Combine as a user's does, with the lines the README's
// "Adding KVOLite to a package" shows, and code written for Apple's Combine, unchanged: a
// library (MyLibrary) that backfills the members Apple added after Combine's first release, as
// libraries written for that release do, and calls them, as the executable does, which checks
// whose member each call ran. CI builds and runs it (.ci/run). It loads URLs with Combine too,
// so it enables the trait that makes the module named Combine carry URLSession's publisher (a
// package without it links no FoundationNetworking): the one line the README adds for that,
// and the reason this manifest says 6.1, the first tools version with traits.
//
// Why KVOLite's members that libraries backfill are disfavored overloads: StandInCombine
// declares one such member plainly, StandInBackfill backfills it as MyLibrary does, and
// Ambiguity/UsesBothValues.swift, outside every target, sees both: CI compiles it against the
// two modules this package builds (neither depends on KVOLite) and expects the ambiguity error.
let package = Package(
  name: "CombinePort",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(name: "KVOLite", path: "../..", traits: ["URLSessionPublishers"])
  ],
  targets: [
    .target(
      name: "MyLibrary",
      dependencies: [.product(name: "Combine", package: "KVOLite")]
    ),
    .executableTarget(
      name: "CombinePort",
      dependencies: ["MyLibrary", .product(name: "Combine", package: "KVOLite")]
    ),
    .target(name: "StandInCombine"),
    .target(name: "StandInBackfill", dependencies: ["StandInCombine"]),
  ]
)
