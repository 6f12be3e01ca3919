import Foundation
import MapModelReader
import MapRuntime
import MapTestSupport
import Testing

private func base64Hashes(_ model: ObjectModel) -> [String: String] {
  Dictionary(
    uniqueKeysWithValues: VersionHasher.entityHashes(of: model).map {
      ($0.entity, Data($0.hash).base64EncodedString())
    })
}

@Suite(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct VersionHasherCorpusTests {
  /// Hashes Xcode 13.4.1 wrote into the compiled SwiftGen model's VersionInfo.plist.
  @Test func reproducesXcodesVersionInfoPlist() throws {
    let plistURL = SharedPaths.corpus!.appendingPathComponent(
      "SwiftGen/SwiftGen/SwiftGen.playground/Resources/Model.momd/VersionInfo.plist")
    let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: plistURL), format: nil)
    let versions = try #require(
      (plist as? [String: Any])?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
    #expect(versions.keys.sorted() == ["Model", "Model 2"])
    var compared = 0
    for (version, expected) in versions {
      let model = try ModelLoader.load(path: ModelLoaderCorpusTests.swiftGenBundle, version: version).model
      let hashes = VersionHasher.entityHashes(of: model)
      #expect(hashes.map(\.entity) == expected.keys.sorted())
      for h in hashes {
        #expect(Data(h.hash) == expected[h.entity], "\(version)/\(h.entity)")
        compared += 1
      }
    }
    #expect(compared == 11)
  }

  /// Every fixture store's metadata names hashes; the model version with the same version
  /// identifiers must hash to exactly those.
  @Test func matchesFixtureStoreMetadata() throws {
    let fm = FileManager.default
    let fixtures = SharedPaths.fixtures!
    var compared = 0
    for folder in try fm.contentsOfDirectory(atPath: fixtures.path).sorted() {
      let dir = fixtures.appendingPathComponent(folder)
      let items = (try? fm.contentsOfDirectory(atPath: dir.path)) ?? []
      var models: [[String]: [String: String]] = [:]
      for bundle in items where bundle.hasSuffix(".xcdatamodeld") {
        let bundlePath = dir.appendingPathComponent(bundle).path
        for version in try fm.contentsOfDirectory(atPath: bundlePath) where version.hasSuffix(".xcdatamodel") {
          let model = try ModelLoader.load(path: bundlePath, version: version).model
          models[model.versionIdentifiers] = base64Hashes(model)
        }
      }
      for store in items where store.hasSuffix(".json") {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(store)))
        guard let metadata = (json as? [String: Any])?["metadata"] as? [String: Any],
          let expected = metadata["entityVersionHashes"] as? [String: String],
          let identifiers = metadata["modelVersionIdentifiers"] as? [String]
        else { continue }
        let actual = try #require(models[identifiers], "\(folder)/\(store): no model version \(identifiers)")
        #expect(actual == expected, "\(folder)/\(store)")
        compared += 1
      }
    }
    #expect(compared >= 4)
  }
}

@Suite struct VersionHasherTests {
  private func hashOf(_ entityBody: String, entity: String = "A") throws -> [UInt8] {
    let model = try loadModel(modelText(entityBody)).get().model
    return try #require(VersionHasher.entityHashes(of: model).first { $0.entity == entity }).hash
  }

  @Test func onlyDocumentedInputsChangeTheHash() throws {
    let base = try hashOf(
      """
      <entity name="A"><attribute name="x" attributeType="String"/><relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>
      """)
    // Class name, user info, defaults, validation, delete rule, renaming ID: not hashed.
    let cosmetic = try hashOf(
      """
      <entity name="A" representedClassName="Foo" elementID="old"><attribute name="x" attributeType="String" defaultValueString="d" minValueString="1" elementID="y"><userInfo><entry key="k" value="v"/></userInfo></attribute><relationship name="r" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="A" inverseName="r" inverseEntity="A"/><fetchedProperty name="f"><fetchRequest name="q" entity="A"/></fetchedProperty></entity>
      """)
    #expect(cosmetic == base)
    let variants = [
      #"<entity name="A"><attribute name="x" optional="YES" attributeType="String"/><relationship name="r" optional="YES" maxCount="1" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>"#,
      #"<entity name="A"><attribute name="x" attributeType="Date"/><relationship name="r" optional="YES" maxCount="1" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>"#,
      #"<entity name="A"><attribute name="x" attributeType="String" versionHashModifier="2"/><relationship name="r" optional="YES" maxCount="1" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>"#,
      #"<entity name="A"><attribute name="x" attributeType="String"/><relationship name="r" optional="YES" toMany="YES" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>"#,
      #"<entity name="A" isAbstract="YES"><attribute name="x" attributeType="String"/><relationship name="r" optional="YES" maxCount="1" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>"#,
      #"<entity name="A" versionHashModifier="v2"><attribute name="x" attributeType="String"/><relationship name="r" optional="YES" maxCount="1" destinationEntity="A" inverseName="r" inverseEntity="A"/></entity>"#,
    ]
    var seen: Set<[UInt8]> = [base]
    for v in variants {
      let h = try hashOf(v)
      #expect(!seen.contains(h), "\(v) should hash differently")
      seen.insert(h)
    }
  }

  @Test func transientPropertiesAreNotHashed() throws {
    let plain = try hashOf(#"<entity name="A"><attribute name="x" attributeType="String"/></entity>"#)
    let withTransient = try hashOf(
      #"<entity name="A"><attribute name="x" attributeType="String"/><attribute name="t" optional="YES" transient="YES" attributeType="String"/></entity>"#
    )
    #expect(plain == withTransient)
  }

  @Test func derivationExpressionsPrintLikeNSExpression() {
    let cases = [
      ("oneToMany.@count", "count:(oneToMany)"),
      ("items.@sum.price", "sum:(items.price)"),
      ("items.@avg.price", "average:(items.price)"),
      ("canonical:( optionalString )", "canonical:(optionalString)"),
      ("now( )", "now()"),
      ("lowercase:(name)", "lowercase:(name)"),
      ("a + b", "a + b"),
    ]
    for (text, printed) in cases {
      #expect(VersionHasher.printedDerivationExpression(text) == printed, "\(text)")
    }
  }
}
