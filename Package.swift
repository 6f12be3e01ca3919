// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "mapc",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "mapc", targets: ["mapc"]),
    .library(name: "MapArchives", targets: ["MapArchives"]),
    .library(name: "MapRuntime", targets: ["MapRuntime"]),
    .library(name: "MapSyntax", targets: ["MapSyntax"]),
    .library(name: "MapModelReader", targets: ["MapModelReader"]),
    .library(name: "MapCompiler", targets: ["MapCompiler"]),
    .library(name: "MapTools", targets: ["MapTools"]),
    .library(name: "MapSQLite", targets: ["MapSQLite"]),
    .library(name: "MapJSONText", targets: ["MapJSONText"]),
    .library(name: "MapJSON", targets: ["MapJSON"]),
    .library(name: "MapcKit", targets: ["MapcKit"]),
    .library(name: "MapcCLI", targets: ["MapcCLI"]),
    .library(name: "MapSwiftSchema", targets: ["MapSwiftSchema"]),
    // The bodies of the fuzz targets, for Fuzz/Package.swift only (not an API for apps).
    .library(name: "MapFuzzing", targets: ["MapFuzzing"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // Only MapSwiftSchema (SwiftData schemas read from Swift source) uses it.
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    // `swift package generate-documentation` for MapcKit's DocC catalog (scripts/build-docs.sh).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // libxml2, seen only by MapSyntax (its XML/ seam).
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
    ),

    // SQLite, seen only by MapSQLite (SQLiteDatabase).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),

    // zlib, seen only by MapSQLite (RawDeflate: the Z_MODELCACHE row is a raw DEFLATE stream).
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),

    // The one call a signal handler needs that Swift's Glibc module does not declare: glibc's
    // async-signal-safe _Fork(). Seen only by MapRuntime (TemporaryFiles' handler).
    .systemLibrary(name: "CSignalSafe"),

    // Apple's archives: binary property lists and NSKeyedArchiver archives (reading, building,
    // Transformable values), below MapRuntime; MapCompiler and MapSQLite read them too.
    .target(name: "MapArchives"),

    // Runtime: model types, plan reader, interpreter, stores, policies. No libxml2, no compiler.
    .target(
      name: "MapRuntime",
      dependencies: ["MapArchives", "CSignalSafe", .product(name: "Crypto", package: "swift-crypto")]
    ),

    // JSON text: the scanner, the writer (the store's exact bytes), and JSON values with the file
    // position of each (JSONDocument), for every JSON file mapc reads or writes.
    .target(name: "MapJSONText", dependencies: ["MapRuntime"]),

    // The JSON store as a store format (Specs/store-format.md): store reader and writer over
    // MapJSONText, metadata and Transformable values in their JSON forms, values as JSON.
    .target(name: "MapJSON", dependencies: ["MapArchives", "MapRuntime", "MapJSONText"]),

    // What the compiler and the tools read text with: the Diagnostic value, the XML seam over
    // libxml2 and XML escaping, the NSExpression / NSPredicate parser.
    .target(name: "MapSyntax", dependencies: ["MapRuntime", "CLibXML2"]),

    // Core Data data models (`contents` files and bundles): read, checked, hashed, written.
    .target(
      name: "MapModelReader",
      dependencies: ["MapSyntax", "MapRuntime", .product(name: "Crypto", package: "swift-crypto")]
    ),

    // The compiler: a mapping (mapc's XML or an Xcode mapping model) type checked and compiled
    // to a plan; import and export between the mapping formats.
    .target(
      name: "MapCompiler",
      dependencies: [
        "MapSyntax",
        "MapModelReader",
        "MapArchives",
        "MapRuntime",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),

    // The tools over models and mappings: lint, inferred mappings, data loss, version chains,
    // model diffs and locks, staged migrations, diagrams, reports, test fixtures.
    .target(
      name: "MapTools",
      dependencies: [
        "MapSyntax",
        "MapModelReader",
        "MapCompiler",
        "MapRuntime",
        "MapJSONText",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),

    // Core Data's SQLite stores as a second store format (Specs/sqlite-store.md).
    .target(
      name: "MapSQLite",
      dependencies: [
        "MapArchives", "MapRuntime", "MapJSONText", "CSQLite", "CZlib",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),

    // SwiftData schemas read from Swift source (`@Model` classes, `VersionedSchema` enums) with
    // swift-syntax, as MapRuntime model values (Specs/swiftdata-schema.md). Its own module so that
    // nothing else builds swift-syntax's parser.
    .target(
      name: "MapSwiftSchema",
      dependencies: [
        "MapArchives",
        "MapRuntime",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        // `#if` evaluated as for an Apple platform (SwiftBuildConditions).
        .product(name: "SwiftIfConfig", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
      ]
    ),

    // The library façade: what an app, a test suite or the CLI calls to migrate, convert, lint
    // or test, with option values in and report values (or typed errors) out. Prints nothing
    // and never exits the process; no argument parser.
    .target(
      name: "MapcKit",
      dependencies: [
        "MapSyntax", "MapModelReader", "MapCompiler", "MapTools", "MapRuntime", "MapJSON", "MapJSONText",
        "MapSQLite", "MapSwiftSchema",
        // The key of a chain's intermediate stores (SHA-256 of its plans).
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),

    // The command-line interface as a library, so an app's own executable can register
    // migration policies and then run `MapcCommand.main()`.
    .target(
      name: "MapcCLI",
      dependencies: [
        "MapcKit",
        "MapSyntax",
        "MapModelReader",
        "MapCompiler",
        "MapTools",
        "MapRuntime",
        "MapJSON",
        "MapJSONText",
        "MapSQLite",
        "MapSwiftSchema",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "mapc", dependencies: ["MapcCLI"]),

    // What each fuzz target of Fuzz/ runs (Fuzz/README.md). Here, not in Fuzz/, so that it
    // reaches `package` declarations and every `swift build` compiles it: a fuzz target cannot
    // stop building unnoticed.
    .target(
      name: "MapFuzzing",
      dependencies: [
        "MapArchives", "MapSyntax", "MapModelReader", "MapCompiler", "MapTools", "MapRuntime", "MapJSON",
        "MapJSONText", "MapSQLite", "MapSwiftSchema",
      ]
    ),

    // Worked example (Examples/SongbookSimple/README.md): an executable that registers its own
    // migration policies and then runs as mapc. The tests build and run it.
    .executableTarget(
      name: "SongbookSimple",
      dependencies: ["MapcCLI", "MapRuntime"],
      path: "Examples/SongbookSimple/Sources"
    ),

    // Worked example (Examples/WiboscoPosts/README.md): wibosco's real Core Data migration from
    // model version 2 to 3, as a text mapping whose section titles come from a small policy.
    .executableTarget(
      name: "WiboscoPosts",
      dependencies: ["MapcCLI", "MapRuntime"],
      path: "Examples/WiboscoPosts/Sources"
    ),

    // Tests
    .target(
      name: "MapTestSupport",
      dependencies: ["MapCompiler", "MapRuntime", "MapJSON", "MapJSONText"],
      path: "Tests/MapTestSupport"
    ),
    .testTarget(
      name: "MapRuntimeTests",
      dependencies: ["MapRuntime", "MapJSON", "MapJSONText", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapArchivesTests",
      dependencies: ["MapArchives", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapJSONTextTests",
      dependencies: ["MapJSONText", "MapRuntime", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapJSONTests",
      dependencies: ["MapArchives", "MapJSON", "MapJSONText", "MapRuntime", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapSyntaxTests",
      dependencies: [
        "MapSyntax", "MapRuntime", "MapTestSupport",
        // JUnit's use of the XML escaper (XMLEscapingTests).
        "MapTools",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "MapModelReaderTests",
      dependencies: [
        "MapModelReader", "MapSyntax", "MapRuntime", "MapTestSupport",
        // A bundle's versions in order (ModelVersions, VersionOrderTests).
        "MapTools",
      ]
    ),
    .testTarget(
      name: "MapCompilerTests",
      dependencies: [
        "MapArchives", "MapSyntax", "MapModelReader", "MapCompiler", "MapRuntime", "MapJSON", "MapJSONText",
        "MapTestSupport",
        // The Xcode corpus is linted too (XcodeCorpusTests).
        "MapTools",
      ]
    ),
    .testTarget(
      name: "MapToolsTests",
      dependencies: ["MapSyntax", "MapModelReader", "MapCompiler", "MapTools", "MapRuntime", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapSQLiteTests",
      dependencies: ["MapSQLite", "MapRuntime", "MapTestSupport"],
      // The independent python3 reader the tests compare with.
      exclude: ["store_facts.py", "touch_texts.py"]
    ),
    .testTarget(
      name: "MapSwiftSchemaTests",
      dependencies: ["MapSwiftSchema", "MapRuntime", "MapCompiler", "MapTestSupport"]
    ),
    // The fuzz targets' bodies replayed on their regressions, seeds and mutations.
    .testTarget(
      name: "MapFuzzingTests",
      dependencies: ["MapFuzzing", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapcKitTests",
      dependencies: ["MapcKit", "MapCompiler", "MapTools", "MapRuntime", "MapTestSupport"]
    ),
    .testTarget(
      name: "MapcCLITests",
      dependencies: [
        "MapcCLI", "MapcKit", "MapSyntax", "MapModelReader", "MapCompiler", "MapTools", "MapJSON", "MapJSONText",
        "MapRuntime", "MapTestSupport",
        // The help a registered store format appears in (ThirdStoreFormatTests).
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // The independent python3 readers of Core Data stores the SQLite tests run.
      exclude: [
        "SQLite/core_data_store.py", "SQLite/core_data_schema.py", "SQLite/store_copy.py", "SQLite/model_cache.py",
        "SQLite/wibosco_2to3_rows.py", "SQLite/kept_rows.py", "SQLite/ordered_members.py", "SQLite/same_rows.py",
        "SQLite/store_facts.py", "SQLite/swiftdata_store.py", "SQLite/model_declared.py", "SQLite/odd_cache.py",
        "SQLite/external_data_store.py", "SQLite/step_back_rows.py", "SQLite/sqlite_master.py",
        "SQLite/damage_store.py",
        "Review/model_changes.py", "Review/png_ink.py",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
