// swift-tools-version:6.1
// Fuzz targets for every reader of mapc (issue 17). Built and run by Fuzz/run.sh with
// libFuzzer and the address sanitizer (-sanitize=fuzzer,address): each target is an
// executable whose entry point is LLVMFuzzerTestOneInput (libFuzzer supplies main), which hands
// the input to the target's function in the main package's MapFuzzing library (Sources/MapFuzzing),
// so the ordinary build compiles what every target runs.
import PackageDescription

let targets = ["model-xml", "mapping-xml", "expression", "plan", "json-store", "xcmappingmodel", "bplist", "keyed-archive", "sqlite-store",
  "swift-schema", "fixture-file", "lock-file", "model-cache", "text-plist",
]

let package = Package(
  name: "mapc-fuzz",
  dependencies: [.package(name: "mapc", path: "..")],
  targets: [.target(name: "FuzzMain")] + targets.map { name in
    .executableTarget(
      name: name,
      dependencies: [
        "FuzzMain",
        .product(name: "MapFuzzing", package: "mapc"),
      ],
      path: "Sources/\(name)",
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
  },
  swiftLanguageModes: [.v6]
)
