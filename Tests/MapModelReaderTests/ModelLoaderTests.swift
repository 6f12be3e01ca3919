import Foundation
import MapModelReader
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

@Suite(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct ModelLoaderCorpusTests {
  static var swiftGenBundle: String {
    SharedPaths.corpus!.appendingPathComponent(
      "SwiftGen/SwiftGen/Sources/TestUtils/Fixtures/Resources/CoreData/Model.xcdatamodeld"
    ).path
  }
  static var momcomModel: String {
    SharedPaths.corpus!.appendingPathComponent(
      "atomicbird/momcom/momcomTests/momcomTests.xcdatamodeld/momcTests.xcdatamodel"
    ).path
  }

  @Test func everyCorpusModelLoads() throws {
    let files = contentsFiles(under: SharedPaths.corpus!)
    #expect(files.count >= 49)
    for file in files {
      do {
        let loaded = try ModelLoader.load(path: file.path)
        #expect(loaded.model.path == file.path)
      } catch {
        Issue.record("\(file.path) did not load:\n\(error)")
      }
    }
  }

  @Test func currentVersionOfABundle() throws {
    let loaded = try ModelLoader.load(path: Self.swiftGenBundle)
    #expect(loaded.model.versionName == "Model 2")
    #expect(loaded.contentsPath == Self.swiftGenBundle + "/Model 2.xcdatamodel/contents")
    #expect(loaded.model.versionIdentifiers == [""])
    #expect(loaded.warnings.isEmpty)
  }

  @Test func explicitVersion() throws {
    for name in ["Model", "Model.xcdatamodel"] {
      let loaded = try ModelLoader.load(path: Self.swiftGenBundle + "/", version: name)
      #expect(loaded.model.versionName == "Model")
      #expect(loaded.model.entities.map(\.name) == ["ChildEntity", "MainEntity", "SecondaryEntity"])
    }
    #expect(throws: DiagnosticsError.self) { try ModelLoader.load(path: Self.swiftGenBundle, version: "Model 9") }
    do {
      _ = try ModelLoader.load(path: Self.swiftGenBundle, version: "Model 9")
    } catch {
      #expect(error.diagnostics.map(\.id) == ["model-version-not-found"])
      #expect(error.diagnostics.first?.message.contains("(versions: 'Model', 'Model 2')") == true)
    }
  }

  @Test func folderAndContentsFile() throws {
    let folder = Self.swiftGenBundle + "/Model 2.xcdatamodel"
    let fromFolder = try ModelLoader.load(path: folder)
    let fromFile = try ModelLoader.load(path: folder + "/contents")
    #expect(fromFolder.model.versionName == "Model 2")
    #expect(fromFile.model.versionName == "Model 2")
    #expect(fromFolder.model.entities == fromFile.model.entities)
  }

  @Test func everyPartOfTheSwiftGenModel() throws {
    let loaded = try ModelLoader.load(path: Self.swiftGenBundle, version: "Model 2")
    let model = loaded.model
    let file = loaded.contentsPath
    #expect(
      model.entities.map(\.name) == [
        "AbstractEntity", "AutoClassGen", "AutoExtensionGen", "ChildEntity", "ImpossibleType",
        "MainEntity", "NewEntity", "SecondaryEntity",
      ])
    #expect(model.entity(named: "AbstractEntity")?.isAbstract == true)

    let child = try #require(model.entity(named: "ChildEntity"))
    #expect(child.parentName == "MainEntity")
    #expect(child.className == "SwiftGen.ChildEntity")
    #expect(child.userInfo["key"] == "value")
    let derived = child.attributes.map { "\($0.name)=\($0.derivationExpression ?? "")" }
    #expect(
      derived == [
        "canonicalOptionalString=canonical:(optionalString)",
        "derivedCount=oneToMany.@count", "now=now()",
      ])
    #expect(child.attributes.allSatisfy { $0.isDerived })

    let main = try #require(model.entity(named: "MainEntity"))
    #expect(main.location == SourceLocation(file: file, line: 15, column: 5))
    #expect(main.attributes.count == 27)
    let decimal = try #require(main.attribute(named: "decimal"))
    #expect(decimal.type == .decimal)
    #expect(decimal.isOptional)
    #expect(decimal.defaultValue == .decimal("0.0"))
    #expect(decimal.location == SourceLocation(file: file, line: 24, column: 9))
    #expect(main.attribute(named: "int16")?.defaultValue == .integer(0))
    #expect(main.attribute(named: "double")?.defaultValue == .double(0))
    #expect(main.attribute(named: "double")?.isOptional == false)
    #expect(main.attribute(named: "transient")?.isTransient == true)
    #expect(main.attribute(named: "uri")?.type == .uri)
    #expect(main.attribute(named: "uuid")?.type == .uuid)
    #expect(main.attribute(named: "attributedString")?.customClassName == "NSAttributedString")
    #expect(
      main.attribute(named: "integerOptionSet")?.userInfo.entries.map(\.key) == [
        "nonOptionalInit", "RawType", "unwrapOptional",
      ])
    let manyToMany = try #require(main.relationship(named: "manyToMany"))
    #expect(manyToMany.isToMany && !manyToMany.isOrdered && manyToMany.maxCount == 0)
    #expect(manyToMany.inverseName == "manyToMany" && manyToMany.inverseEntity == "SecondaryEntity")
    #expect(main.relationship(named: "oneToMany")?.isOrdered == true)
    #expect(main.relationship(named: "oneToOne")?.maxCount == 1)
    #expect(main.relationship(named: "oneToOne")?.deleteRule == .nullify)
    let fetched = try #require(main.fetchedProperties.first)
    #expect(fetched.name == "fetchedProperty")
    #expect(fetched.fetchRequest.entity == "NewEntity")
    #expect(fetched.fetchRequest.predicateString == "true == true")
    #expect(fetched.userInfo["key"] == "value")

    let newEntity = try #require(model.entity(named: "NewEntity"))
    #expect(newEntity.uniquenessConstraints == [["identifier"]])
    #expect(
      newEntity.fetchIndexes == [
        FetchIndexDescription(name: "byIdentifierIndex", elements: [.init(property: "identifier")])
      ])

    #expect(
      model.fetchRequestTemplates.map(\.name) == [
        "DictionaryFetchRequest", "ObjectFetchRequest", "ObjectIDFetchRequest",
      ])
    #expect(model.fetchRequestTemplates.map(\.resultType) == [.dictionaries, .managedObjects, .objectIDs])
    let objects = model.fetchRequestTemplates[1]
    #expect(objects.predicateString == "uuid == $UUID")
    #expect(objects.includesSubentities && objects.includesPropertyValues && objects.includesPendingChanges)
    #expect(objects.returnsObjectsAsFaults && objects.returnsDistinctResults)
    #expect(objects.location == SourceLocation(file: file, line: 93, column: 5))
    #expect(model.configurations == [ModelConfiguration(name: "Custom", memberEntities: ["NewEntity"])])
  }

  @Test func xcode4EraModelWithBoundsAndRenamingIdentifiers() throws {
    let model = try ModelLoader.load(path: Self.momcomModel).model
    let entity = try #require(model.entity(named: "Entity"))
    #expect(entity.renamingIdentifier == "myRenamingIdentifier")
    #expect(entity.versionHashModifier == "myVersionHashModifier")
    #expect(
      entity.compoundIndexes == [["booleanAttribute", "dateAttribute"], ["decimalAttribute", "doubleAttribute"]])
    let date = try #require(entity.attribute(named: "dateAttribute"))
    #expect(date.minValue == .date(284_000_400))
    #expect(date.maxValue == .date(602_395_200))
    #expect(date.defaultValue == .date(388_411_200))
    #expect(entity.attribute(named: "decimalAttribute")?.minValue == .decimal("-4.5"))
    #expect(entity.attribute(named: "int16Attribute")?.minValue == .integer(-3))
    #expect(entity.attribute(named: "int16Attribute")?.maxValue == .integer(9))
    #expect(entity.attribute(named: "floatAttribute")?.maxValue == .double(2.5))
    #expect(entity.attribute(named: "transformableAttribute")?.valueTransformerName == "myValueTransformer")
    let binary = try #require(entity.attribute(named: "binaryAttribute"))
    #expect(binary.isIndexedBySpotlight && binary.isStoredInExternalRecord && binary.isTransient)
    #expect(binary.userInfo["binaryBaz"] == "MAYBE")
    let others = try #require(entity.relationship(named: "otherEntities"))
    #expect((others.minCount, others.maxCount) == (1, 9))
    #expect(model.fetchRequestTemplates.first?.predicateString == "booleanAttribute == 1 AND floatAttribute > 5")
    #expect(model.configurations.first?.memberEntities == ["UnrelatedEntity"])
  }
}

@Suite struct ModelLoaderPathTests {
  @Test func datesWrittenAsTextAreParsed() throws {
    let loaded = try loadModel(
      modelText(
        """
        <entity name="A">
        <attribute name="d" attributeType="Date" defaultValueString="2013-04-23 12:00:00 +0000" minValueString="2010-01-01 01:00:00" maxValueString="2020-02-03 04:00"/>
        <attribute name="s" attributeType="String" minValueString="1" maxValueString="20" regularExpressionString="[a-z]+"/>
        <attribute name="blob" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        </entity>
        """)
    ).get()
    let a = try #require(loaded.model.entity(named: "A"))
    // The same instants as the …DateTimeInterval values Xcode writes beside these strings.
    #expect(a.attribute(named: "d")?.defaultValue == .date(388_411_200))
    #expect(a.attribute(named: "d")?.minValue == .date(284_000_400))
    #expect(a.attribute(named: "d")?.maxValue == .date(602_395_200))
    #expect(a.attribute(named: "s")?.minValue == .integer(1))
    #expect(a.attribute(named: "s")?.maxValue == .integer(20))
    #expect(a.attribute(named: "s")?.regularExpression == "[a-z]+")
    #expect(a.attribute(named: "blob")?.allowsExternalBinaryDataStorage == true)
    #expect(loaded.model.versionIdentifiers == ["v7"])
  }

  @Test func missingPath() throws {
    do {
      _ = try ModelLoader.load(path: "/nonexistent/Model.xcdatamodeld")
      Issue.record("loaded")
    } catch {
      #expect(error.diagnostics.map(\.id) == ["model-path"])
      #expect(error.diagnostics.first?.file == "/nonexistent/Model.xcdatamodeld")
    }
  }

  @Test func xcode3FolderIsRefusedClearly() throws {
    let dir = try FileManagerTemp.folder("model")
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = dir.appendingPathComponent("Old.xcdatamodel")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: folder.appendingPathComponent("elements"))
    do {
      _ = try ModelLoader.load(path: folder.path)
      Issue.record("loaded")
    } catch {
      #expect(error.diagnostics.map(\.id) == ["model-xcode3-format"])
      #expect(error.diagnostics.first?.message.contains("Xcode 3 model format is not supported") == true)
    }
  }

  @Test func bundleVersionSelection() throws {
    let dir = try FileManagerTemp.folder("model")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = dir.appendingPathComponent("Two.xcdatamodeld")
    for version in ["One", "Two"] {
      let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(modelText("<entity name=\"E\(version)\"/>").utf8).write(to: folder.appendingPathComponent("contents"))
    }
    // Two versions and no .xccurrentversion: the user must choose.
    do {
      _ = try ModelLoader.load(path: bundle.path)
      Issue.record("loaded")
    } catch {
      #expect(error.diagnostics.map(\.id) == ["model-current-version"])
    }
    #expect(try ModelLoader.load(path: bundle.path, version: "One").model.entities.map(\.name) == ["EOne"])

    // A .xccurrentversion naming a version that is not there points at the name.
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>_XCCurrentVersionName</key>
      \t<string>Three.xcdatamodel</string>
      </dict>
      </plist>
      """
    let current = bundle.appendingPathComponent(".xccurrentversion")
    try Data(plist.utf8).write(to: current)
    do {
      _ = try ModelLoader.load(path: bundle.path)
      Issue.record("loaded")
    } catch {
      #expect(error.diagnostics.map(\.id) == ["model-current-version"])
      #expect(error.diagnostics.first?.location == SourceLocation(file: current.path, line: 6, column: 10))
    }
    try Data(plist.replacingOccurrences(of: "Three", with: "Two").utf8).write(to: current)
    #expect(try ModelLoader.load(path: bundle.path).model.versionName == "Two")
  }
}
