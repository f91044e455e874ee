// swift-tools-version: 6.0
import PackageDescription

// Two apps that use no URLSession publisher, as a user's would: one on KVOLiteBridge alone
// (models, Combine and a two-way binding), one on the Combine product. CI builds them statically
// (`-c release --static-swift-stdlib`) and checks that neither links FoundationNetworking or
// libcurl (Scripts/check-static-link): a static build then needs the toolchain alone.
let package = Package(
  name: "StaticLink",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(name: "KVOLite", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "BridgeApp",
      dependencies: [.product(name: "KVOLiteBridge", package: "KVOLite")]
    ),
    .executableTarget(
      name: "CombineApp",
      dependencies: [.product(name: "Combine", package: "KVOLite")]
    ),
  ]
)
