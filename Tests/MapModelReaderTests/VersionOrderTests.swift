import Foundation
import MapRuntime
import MapSyntax
import MapTestSupport
import MapTools
import Testing

/// The chain order of a bundle's versions: as Xcode users name them, or as the bundle declares.
/// Every expected order here is written by hand from the names.
@Suite struct VersionOrderTests {
  /// `names` shuffled (reversed and rotated) must come back in `expected` order.
  private func check(_ expected: [String], bundle: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let rotated = Array(expected.dropFirst(expected.count / 2) + expected.prefix(expected.count / 2))
    for input in [expected.reversed(), rotated] {
      #expect(
        VersionOrder.sorted(input, bundleName: bundle).names == expected, sourceLocation: sourceLocation)
    }
  }

  @Test func xcodeNamesInNaturalOrder() {
    check(["Model"] + (2...13).map { "Model \($0)" }, bundle: "Model")
    // The first version named like the bundle, the later ones only numbers: Model first.
    check(["Model"] + (2...13).map(String.init), bundle: "Model")
    check(["App", "App v2", "App V3", "App v 4", "App v10"], bundle: "App")
    check(["Model", "Model_2", "Model_3", "Model_12"], bundle: "Model")
    check(["Data 1.0.0", "Data 1.2.0", "Data 1.10.0", "Data 2.0.0", "Data 2.0.1"], bundle: "Data")
    check(["1.2.0", "1.2.1", "1.10.0"], bundle: "Model")
    check(["Base", "Base 2"], bundle: "Other")  // without a number first, whatever the bundle's name
    check(["Other", "Base", "Base 2"], bundle: "Other")  // named like the bundle before the unnumbered
  }

  @Test func namesThatDoNotTellAreSaidToBeUndecided() {
    let (names, undecided) = VersionOrder.sorted(["Model 2", "Model_2", "Model"], bundleName: "Model")
    #expect(names.first == "Model")
    #expect(undecided.count == 1)
    #expect(Set([undecided[0].0, undecided[0].1]) == ["Model 2", "Model_2"])
    #expect(VersionOrder.sorted(["Model", "Model 2"], bundleName: "Model").undecided.isEmpty)
  }

  /// Every real bundle in ../shared keeps the order its names give (checked by reading them: the
  /// version named like the bundle first, then 2, 3, …), which was already right before.
  @Test(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func realBundlesKeepTheirOrder() throws {
    let expected: [String: [String]] = [
      "UnCloudNotesDataModel": [
        "UnCloudNotesDataModel", "UnCloudNotesDataModel v2", "UnCloudNotesDataModel v 3", "UnCloudNotesDataModel v4",
      ],
      "Model": ["Model"],
      "Advanced.EvolutionDemo.V1": ["Advanced.EvolutionDemo.V1", "Advanced.EvolutionDemo.V2"],
      "Advanced.EvolutionDemo.V2": ["Advanced.EvolutionDemo.V2"],
      "Advanced.EvolutionDemo": ["Advanced.EvolutionDemo", "Advanced.EvolutionDemo.V2"],
      "Classic.ColorsDemo": ["ColorsDemo"],
      "ATDataModel": ["ATDataModel"] + (2...6).map { "ATDataModel \($0)" },
      "momcomTests": ["momcTests", "momcTests 2"],
      "Groceries": ["GroceryItem", "GroceryItem2"],
      "CoreDataMigration": (0...3).map { "CoreDataMigration-v1.\($0)" },
      "Moody": ["Moody"],
      "CoreDataMigration_Example": ["CoreDataMigration_Example"] + (2...4).map { "CoreDataMigration_Example \($0)" },
      "Test": ["Test"],
      "SurfJournalModel": ["SurfJournalModel"],
      "BookmarksModel": ["BookmarksModel"] + (2...6).map { "BookmarksModel \($0)" },
      "XCServerCoreData": [
        "XCServerCoreData", "XCServerCoreData1.1.0", "XCServerCoreData1.2.0", "XCServerCoreData2.0.0",
        "XCServerCoreData2.0.1", "XCServerCoreData2.0.2", "XCServerCoreData2.0.3",
      ],
    ]
    // Same-named bundles of other repositories with other versions.
    let byPath: [String: [String]] = [
      "objcio/core-data/Migrations/Migrations/Moody.xcdatamodeld": ["Moody"] + (2...6).map { "Moody \($0)" },
      "SwiftGen/SwiftGen/Sources/TestUtils/Fixtures/Resources/CoreData/Model.xcdatamodeld": ["Model", "Model 2"],
      "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model.xcdatamodeld": (1...5).map { "Model\($0)" },
      "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model.xcdatamodeld": (1...5).map { "Model\($0)" },
    ]
    var checked = 0
    for root in [SharedPaths.corpus!, SharedPaths.shared!.appendingPathComponent("stores")] {
      let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
      while let url = enumerator?.nextObject() as? URL {
        guard url.pathExtension == "xcdatamodeld" else { continue }
        enumerator?.skipDescendants()
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
          .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
        guard !names.isEmpty else { continue }
        let bundleName = url.deletingPathExtension().lastPathComponent
        let relative = String(url.path.dropFirst(root.path.count + 1))
        // Wire's 90 versions (`zmessaging`, `zmessaging1.27`, …, `zmessaging2.101.0`): the unnumbered
        // one first, then by the numbers after the name, compared as numbers one by one.
        let wire =
          bundleName == "zmessaging"
          ? names.sorted {
            let (a, b) = (
              $0.dropFirst(10).split(separator: ".").map { Int($0)! },
              $1.dropFirst(10).split(separator: ".").map { Int($0)! }
            )
            return a.lexicographicallyPrecedes(b)
          } : nil
        let want = try #require(byPath[relative] ?? expected[bundleName] ?? wire, "no expected order for \(relative)")
        #expect(VersionOrder.sorted(names.sorted(), bundleName: bundleName).names == want, "\(relative)")
        checked += 1
      }
    }
    #expect(checked == 26)
  }

  // MARK: - Bundles on disk

  static func bundle(_ names: [String], in dir: URL, named bundleName: String = "Model") throws -> URL {
    let bundle = dir.appendingPathComponent("\(bundleName).xcdatamodeld")
    for name in names {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try modelText("<entity name=\"E\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>")
        .write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    return bundle
  }

  @Test func aBundleNamedLikeItsFirstVersionWithNumberedLaterOnes() throws {
    let dir = try FileManagerTemp.folder("version-order")
    defer { FileManagerTemp.remove(dir.path) }
    let names = ["Model"] + (2...13).map(String.init)
    let versions = try ModelVersions.load(bundle: Self.bundle(names.shuffled(), in: dir).path)
    #expect(versions.names == names)
    #expect(versions.orderSource == .names)
    #expect(versions.current == 12)  // no .xccurrentversion: the last
    #expect(versions.orderNote.hasPrefix("versions in the order of their names: 'Model', '2', '3',"))
    #expect(versions.orderNote.contains(".mapc-version-order") && versions.orderNote.contains("--version-order"))
  }

  @Test func aDeclaredOrderWinsOverNames() throws {
    let dir = try FileManagerTemp.folder("version-order-file")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(["Alpha", "Beta", "Gamma"], in: dir)
    // Names do not tell (no numbers): ordered by name, and the note says so.
    let byName = try ModelVersions.load(bundle: bundle.path)
    #expect(byName.names == ["Alpha", "Beta", "Gamma"])
    #expect(byName.orderNote.contains("names do not tell 'Alpha' before 'Beta', 'Beta' before 'Gamma'"))
    let file = bundle.appendingPathComponent(".mapc-version-order")
    try "# oldest first\nGamma\n\n  Alpha.xcdatamodel  \nBeta\n".write(to: file, atomically: false, encoding: .utf8)
    let declared = try ModelVersions.load(bundle: bundle.path)
    #expect(declared.names == ["Gamma", "Alpha", "Beta"])
    #expect(declared.orderSource == .file(file.path))
    #expect(declared.orderNote == "versions in the order declared in \(file.path): 'Gamma', 'Alpha', 'Beta'")
    // The option wins over the file.
    let option = try ModelVersions.load(bundle: bundle.path, order: ["Beta", "Gamma", "Alpha"])
    #expect(option.names == ["Beta", "Gamma", "Alpha"])
    #expect(option.orderSource == .option)
  }

  @Test func aDeclaredOrderMustListEveryVersionOnce() throws {
    let dir = try FileManagerTemp.folder("version-order-bad")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(["A", "B", "C"], in: dir)
    var thrown: [Diagnostic] = []
    do {
      _ = try ModelVersions.load(bundle: bundle.path, order: ["A", "D", "A"])
    } catch {
      thrown = error.diagnostics
    }
    #expect(thrown.map(\.id) == ["model-version-order"])
    let message = thrown.first?.message ?? ""
    #expect(message.contains("it names 'D', not a version of the bundle"), "\(message)")
    #expect(message.contains("it names 'A' twice"))
    #expect(message.contains("it leaves out 'B', 'C'"))
  }
}
