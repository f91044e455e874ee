// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "KVOLite",
  products: [
    .library(name: "KVOLite", targets: ["KVOLite"]),
    .library(name: "PackageModel", targets: ["PackageModel"]),
    .executable(name: "package-editor", targets: ["PackageEditorCLI"]),
    .executable(name: "kvolite-benchmarks", targets: ["KVOLiteBenchmarks"]),
    .executable(name: "kvolite-stress", targets: ["KVOLiteStress"]),
  ],
  targets: [
    .target(name: "KVOLite"),
    .target(name: "PackageModel", dependencies: ["KVOLite"]),
    .executableTarget(name: "PackageEditorCLI", dependencies: ["KVOLite", "PackageModel"]),
    .target(name: "CHeapStats"),
    .executableTarget(
      name: "KVOLiteBenchmarks", dependencies: ["KVOLite", "PackageModel", "CHeapStats"]),
    .executableTarget(name: "KVOLiteStress", dependencies: ["KVOLite"]),
    .testTarget(name: "KVOLiteTests", dependencies: ["KVOLite"]),
    .testTarget(name: "StressTests", dependencies: ["KVOLiteStress"]),
    .testTarget(name: "PackageModelTests", dependencies: ["PackageModel"]),
    .testTarget(name: "PackageEditorCLITests", dependencies: ["PackageEditorCLI"]),
  ],
  swiftLanguageModes: [.v6]
)
