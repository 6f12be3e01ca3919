import Foundation
import MapArchives
import MapCompiler
import MapModelReader
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// One model snapshot of a corpus mapping model.
struct CorpusSnapshot: Sendable {
  /// The mapping file, relative to the corpus.
  var file: String
  /// "source" or "destination".
  var side: String
  var bytes: [UInt8]
  /// `sourcemodelpath` / `destinationmodelpath` as Xcode recorded it.
  var recordedPath: String?
  var mappingURL: URL

  /// `owner/repo/MappingName side`.
  var label: String {
    let parts = file.split(separator: "/")
    let mapping = parts.dropLast().last.map { String($0.dropLast(".xcmappingmodel".count)) } ?? file
    return "\(parts.prefix(2).joined(separator: "/"))/\(mapping) \(side)"
  }

  /// Every snapshot of every `xcmapping.xml` under the corpus, in path order.
  static func all() throws -> [CorpusSnapshot] {
    guard let corpus = SharedPaths.corpus else { return [] }
    let files = SharedPaths.corpusMappingModelFiles
    var result: [CorpusSnapshot] = []
    for url in files {
      let document = try XMLReader.parse(contentsOf: url.path)
      let model = try #require(
        document.root.elements(named: "object").first { $0[attribute: "type"] == "XDDEVMAPPINGMODEL" })
      var values: [String: String] = [:]
      for a in model.elements(named: "attribute") {
        if let name = a[attribute: "name"] { values[name] = a.text }
      }
      let relative = String(url.path.dropFirst(corpus.path.count + 1))
      for side in ["source", "destination"] {
        guard let text = values["\(side)modeldata"] else { continue }
        let data = try #require(Data(base64Encoded: text, options: .ignoreUnknownCharacters), "\(relative) \(side)")
        result.append(
          CorpusSnapshot(
            file: relative, side: side, bytes: Array(data), recordedPath: values["\(side)modelpath"],
            mappingURL: url))
      }
    }
    return result
  }

  /// The `.xcdatamodel` folder the recorded path designates: the path, then ever shorter tails
  /// of it, tried against each folder above the mapping (nearest first) up to the corpus.
  func modelFolder() -> URL? {
    guard let recordedPath, let corpus = SharedPaths.corpus else { return nil }
    let components = recordedPath.split(separator: "/").map(String.init)
    var ancestors: [URL] = []
    var folder = mappingURL.deletingLastPathComponent().deletingLastPathComponent()
    while folder.path.count >= corpus.path.count {
      ancestors.append(folder)
      folder = folder.deletingLastPathComponent()
    }
    for start in components.indices {
      let tail = components[start...].joined(separator: "/")
      for a in ancestors {
        let candidate = a.appendingPathComponent(tail)
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("contents").path) {
          return candidate
        }
      }
    }
    return nil
  }
}

/// Entity name → base64 version hash.
func base64Hashes(of model: ObjectModel) -> [String: String] {
  Dictionary(
    uniqueKeysWithValues: VersionHasher.entityHashes(of: model).map { ($0.entity, Data($0.hash).base64EncodedString()) }
  )
}

/// The entities whose hashes differ between two models (or that only one has), sorted.
func driftingEntities(_ a: ObjectModel, _ b: ObjectModel) -> [String] {
  let ha = base64Hashes(of: a)
  let hb = base64Hashes(of: b)
  return Set(ha.keys).union(hb.keys).filter { ha[$0] != hb[$0] }.sorted()
}

@Suite(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct ModelSnapshotTests {
  /// Per mapping model and side: the model version the recorded path leads to; the entities
  /// whose version hash, computed from the snapshot, differs from the one computed from that
  /// model file (empty: all equal); and the decoded fields that differ from the model file.
  /// All 54 snapshots listed hash like their model files. The field differences are real drift (the
  /// model file edited after the mapping was last refreshed) in fields that do not enter the
  /// hash: class names, user info, the version identifier; and default texts an older Xcode
  /// wrote normalized (apptentive, below).
  static let expected: [String: (model: String, hashes: [String], fields: [String])] = [
    "ElijahButers/UnCloudNotes-App/UnCloudNotesMappingModel_v2_to_v3 source": (
      model: "UnCloudNotesDataModel v2.xcdatamodel", hashes: [], fields: []
    ),
    "ElijahButers/UnCloudNotes-App/UnCloudNotesMappingModel_v2_to_v3 destination": (
      model: "UnCloudNotesDataModel v 3.xcdatamodel", hashes: [], fields: []
    ),
    "ElijahButers/UnCloudNotes-App/UnCloudNotesMappingModel_v3_to_v4 source": (
      model: "UnCloudNotesDataModel v 3.xcdatamodel", hashes: [], fields: []
    ),
    "ElijahButers/UnCloudNotes-App/UnCloudNotesMappingModel_v3_to_v4 destination": (
      model: "UnCloudNotesDataModel v4.xcdatamodel", hashes: [], fields: ["ImageAttachment.className"]
    ),
    "JohnEstropia/CoreStore/Advanced.EvolutionDemo.V1.FromV2 source": (
      model: "Advanced.EvolutionDemo.V2.xcdatamodel", hashes: [], fields: []
    ),
    "JohnEstropia/CoreStore/Advanced.EvolutionDemo.V1.FromV2 destination": (
      model: "Advanced.EvolutionDemo.V1.xcdatamodel", hashes: [], fields: []
    ),
    "JohnEstropia/CoreStore/Advanced.EvolutionDemo.V2.FromV1 source": (
      model: "Advanced.EvolutionDemo.V1.xcdatamodel", hashes: [], fields: []
    ),
    "JohnEstropia/CoreStore/Advanced.EvolutionDemo.V2.FromV1 destination": (
      model: "Advanced.EvolutionDemo.V2.xcdatamodel", hashes: [], fields: []
    ),
    // apptentive's, checked independently of mapc: each snapshot decoded with Python's plistlib
    // (following the UIDs to every stereotype value) and compared field by field with the model
    // file read with ElementTree. The first six snapshots (an older Xcode's) hold default texts
    // normalized (Double "0.0" as "0", the Integer 32 pendingState's "YES" as "0", the value
    // NSString integerValue gives it), so the texts differ and the values do not; v4 to v5's
    // destination names other classes (the file was edited later). Neither enters the hash
    // (NSEntityDescription / NSPropertyDescription versionHash, Apple's documentation).
    "apptentive/apptentive-ios/ATDataModel v1 to v2 source": (
      model: "ATDataModel.xcdatamodel", hashes: [],
      fields: [
        "ATMessage.pendingState.defaultValueString", "ATRecord.clientCreationTime.defaultValueString",
        "ATRecord.creationTime.defaultValueString",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v1 to v2 destination": (
      model: "ATDataModel 2.xcdatamodel", hashes: [],
      fields: [
        "ATAbstractMessage.pendingState.defaultValueString", "ATRecord.clientCreationTime.defaultValueString",
        "ATRecord.creationTime.defaultValueString",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v2 to v3 source": (
      model: "ATDataModel 2.xcdatamodel", hashes: [],
      fields: [
        "ATAbstractMessage.pendingState.defaultValueString", "ATRecord.clientCreationTime.defaultValueString",
        "ATRecord.creationTime.defaultValueString",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v2 to v3 destination": (
      model: "ATDataModel 3.xcdatamodel", hashes: [],
      fields: [
        "ATAbstractMessage.pendingState.defaultValueString", "ATRecord.clientCreationTime.defaultValueString",
        "ATRecord.creationTime.defaultValueString",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v3 to v4 source": (
      model: "ATDataModel 3.xcdatamodel", hashes: [],
      fields: [
        "ATAbstractMessage.pendingState.defaultValueString", "ATRecord.clientCreationTime.defaultValueString",
        "ATRecord.creationTime.defaultValueString",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v3 to v4 destination": (
      model: "ATDataModel 4.xcdatamodel", hashes: [],
      fields: [
        "ATAbstractMessage.pendingState.defaultValueString", "ATRecord.clientCreationTime.defaultValueString",
        "ATRecord.creationTime.defaultValueString",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v4 to v5 source": (
      model: "ATDataModel 4.xcdatamodel", hashes: [], fields: []
    ),
    "apptentive/apptentive-ios/ATDataModel v4 to v5 destination": (
      model: "ATDataModel 5.xcdatamodel", hashes: [],
      fields: [
        "ATEvent.className", "ATFileAttachment.className", "ATMessage.className", "ATMessageSender.className",
        "ATRecord.className", "ATSurveyResponse.className",
      ]
    ),
    "apptentive/apptentive-ios/ATDataModel v5 to v6 source": (
      model: "ATDataModel 5.xcdatamodel", hashes: [], fields: []
    ),
    "apptentive/apptentive-ios/ATDataModel v5 to v6 destination": (
      model: "ATDataModel 6.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-DefaultMigration/Model1ToModel2 source": (
      model: "Model1.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-DefaultMigration/Model1ToModel2 destination": (
      model: "Model2.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-DefaultMigration/Model3ToModel4 source": (
      model: "Model3.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-DefaultMigration/Model3ToModel4 destination": (
      model: "Model4.xcdatamodel", hashes: [], fields: ["Topic.timeBudget.userInfo"]
    ),
    "billmoss/CoreDataMigrations-DefaultMigration/Model4ToModel5 source": (
      model: "Model4.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-DefaultMigration/Model4ToModel5 destination": (
      model: "Model5.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model1ToModel2 source": (
      model: "Model1.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model1ToModel2 destination": (
      model: "Model2.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model3ToModel4 source": (
      model: "Model3.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model3ToModel4 destination": (
      model: "Model4.xcdatamodel", hashes: [], fields: ["Topic.timeBudget.userInfo"]
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-1 source": (
      model: "Model4.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-1 destination": (
      model: "Model5.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-2 source": (
      model: "Model4.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-2 destination": (
      model: "Model5.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-3 source": (
      model: "Model4.xcdatamodel", hashes: [], fields: []
    ),
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-3 destination": (
      model: "Model5.xcdatamodel", hashes: [], fields: []
    ),
    "jdspoone/CoreDataMigrationExample/v1.0-to-v1.1 source": (
      model: "CoreDataMigration-v1.0.xcdatamodel", hashes: [], fields: []
    ),
    "jdspoone/CoreDataMigrationExample/v1.0-to-v1.1 destination": (
      model: "CoreDataMigration-v1.1.xcdatamodel", hashes: [], fields: []
    ),
    "jdspoone/CoreDataMigrationExample/v1.1-to-v1.2 source": (
      model: "CoreDataMigration-v1.1.xcdatamodel", hashes: [], fields: []
    ),
    "jdspoone/CoreDataMigrationExample/v1.1-to-v1.2 destination": (
      model: "CoreDataMigration-v1.2.xcdatamodel", hashes: [], fields: []
    ),
    "jdspoone/CoreDataMigrationExample/v1.2-to-v1.3 source": (
      model: "CoreDataMigration-v1.2.xcdatamodel", hashes: [], fields: []
    ),
    "jdspoone/CoreDataMigrationExample/v1.2-to-v1.3 destination": (
      model: "CoreDataMigration-v1.3.xcdatamodel", hashes: [], fields: []
    ),
    "objcio/core-data/Moody 2-Moody 3 source": (
      model: "Moody 2.xcdatamodel", hashes: [], fields: ["Continent.className", "Country.className", "Mood.className"]
    ),
    "objcio/core-data/Moody 2-Moody 3 destination": (
      model: "Moody 3.xcdatamodel", hashes: [], fields: ["Continent.className", "Country.className", "Mood.className"]
    ),
    "objcio/core-data/Moody 3-Moody 4 source": (
      model: "Moody 3.xcdatamodel", hashes: [], fields: ["Continent.className", "Country.className", "Mood.className"]
    ),
    "objcio/core-data/Moody 3-Moody 4 destination": (
      model: "Moody 4.xcdatamodel", hashes: [],
      fields: ["Continent.className", "Country.className", "Mood.className", "versionIdentifiers"]
    ),
    "objcio/core-data/Moody 4-Moody 5 source": (
      model: "Moody 4.xcdatamodel", hashes: [], fields: ["Continent.className", "Country.className", "Mood.className"]
    ),
    "objcio/core-data/Moody 4-Moody 5 destination": (
      model: "Moody 5.xcdatamodel", hashes: [], fields: ["Country.className", "Mood.className"]
    ),
    "objcio/core-data/Moody 5-Moody 6 source": (
      model: "Moody 5.xcdatamodel", hashes: [], fields: ["Country.className", "Mood.className"]
    ),
    "objcio/core-data/Moody 5-Moody 6 destination": (
      model: "Moody 6.xcdatamodel", hashes: [], fields: ["Country.className", "Mood.className"]
    ),
    "wibosco/CoreDataMigration-Example/Migration1to2 source": (
      model: "CoreDataMigration_Example.xcdatamodel", hashes: [], fields: []
    ),
    "wibosco/CoreDataMigration-Example/Migration1to2 destination": (
      model: "CoreDataMigration_Example 2.xcdatamodel", hashes: [], fields: []
    ),
    "wibosco/CoreDataMigration-Example/Migration2to3 source": (
      model: "CoreDataMigration_Example 2.xcdatamodel", hashes: [], fields: []
    ),
    "wibosco/CoreDataMigration-Example/Migration2to3 destination": (
      model: "CoreDataMigration_Example 3.xcdatamodel", hashes: [], fields: []
    ),
    "wibosco/CoreDataMigrationRevised-Example/Migration2to3ModelMapping source": (
      model: "CoreDataMigration_Example 2.xcdatamodel", hashes: [], fields: []
    ),
    "wibosco/CoreDataMigrationRevised-Example/Migration2to3ModelMapping destination": (
      model: "CoreDataMigration_Example 3.xcdatamodel", hashes: [], fields: []
    ),
  ]

  /// Every snapshot in the corpus decodes and reads as a model; those in the table (each one
  /// there must be in the corpus) lead to the model file, hashes and field differences listed.
  /// A snapshot added to the corpus later only has to read until it is added to the table.
  @Test func snapshotsAgreeWithTheirModelFiles() throws {
    let snapshots = try CorpusSnapshot.all()
    let labels = Set(snapshots.map(\.label))
    #expect(Set(Self.expected.keys).subtracting(labels).isEmpty, "in the table, not in the corpus")
    var equal = 0
    for s in snapshots {
      guard let expected = Self.expected[s.label] else {
        _ = try ModelSnapshotReader.read(s.bytes)
        continue
      }
      let folder = try #require(s.modelFolder(), "\(s.label): no model file for \(s.recordedPath ?? "nil")")
      #expect(folder.lastPathComponent == expected.model, "\(s.label)")
      let fromFile = try ModelLoader.load(path: folder.path).model
      let fromSnapshot = try ModelSnapshotReader.read(s.bytes)
      let drift = driftingEntities(fromSnapshot, fromFile)
      #expect(drift == expected.hashes, "\(s.label): entities hashing differently")
      #expect(fieldDifferences(fromSnapshot, fromFile) == expected.fields, "\(s.label): fields")
      if drift.isEmpty { equal += 1 }
    }
    #expect(equal == Self.expected.count, "every snapshot listed hashes like its model file")
  }

  /// A few decoded values, spelled out.
  @Test func decodedFields() throws {
    let all = try CorpusSnapshot.all()
    func model(_ label: String) throws -> ObjectModel {
      try ModelSnapshotReader.read(try #require(all.first { $0.label == label }).bytes)
    }
    let notes = try model("ElijahButers/UnCloudNotes-App/UnCloudNotesMappingModel_v3_to_v4 destination")
    #expect(notes.entities.map(\.name) == ["Attachment", "ImageAttachment", "Note"])
    let image = try #require(notes.entity(named: "ImageAttachment"))
    #expect(image.parentName == "Attachment")
    #expect(image.className == "UnModuleNotes.ImageAttachment")
    #expect(image.attributes.map(\.name) == ["caption", "height", "image", "width"])
    #expect(image.attribute(named: "height")?.type == .float)
    #expect(image.attribute(named: "image")?.type == .transformable)
    #expect(image.attribute(named: "image")?.valueTransformerName == nil)
    let v3 = try model("ElijahButers/UnCloudNotes-App/UnCloudNotesMappingModel_v3_to_v4 source")
    #expect(v3.entity(named: "Attachment")?.attribute(named: "image")?.valueTransformerName == "ImageTransformer")
    let attachment = try #require(notes.entity(named: "Attachment"))
    let note = try #require(attachment.relationship(named: "note"))
    #expect(note.destinationEntity == "Note")
    #expect(note.inverseName == "attachments" && note.inverseEntity == "Note")
    #expect(!note.isToMany && note.maxCount == 1 && note.isOptional)
    let attachments = try #require(notes.entity(named: "Note")?.relationship(named: "attachments"))
    #expect(attachments.isToMany && attachments.maxCount == 0 && attachments.deleteRule == .nullify)

    let moody = try model("objcio/core-data/Moody 2-Moody 3 source")
    #expect(moody.versionIdentifiers == ["2"])
    let region = try #require(moody.entity(named: "GeographicRegion"))
    #expect(region.isAbstract)
    #expect(region.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
    #expect(region.compoundIndexes == [["markedForDeletionDate", "updatedAt"]])
    #expect(moody.entity(named: "Country")?.parentName == "GeographicRegion")
    #expect(moody.entity(named: "Country")?.className == ".Country")

    let topics = try model("billmoss/CoreDataMigrations-DefaultMigration/Model3ToModel4 destination")
    let budget = try #require(topics.entity(named: "Topic")?.attribute(named: "timeBudget"))
    #expect(budget.userInfo["units"] == "minutes")

    // Read off the archives with Python's plistlib: an older Xcode's snapshot, its Boolean
    // default an NSMutableString "NO" and its Integer 32 default "0"; a newer one's "YES".
    let old = try model("apptentive/apptentive-ios/ATDataModel v3 to v4 destination")
    let abstract = try #require(old.entity(named: "ATAbstractMessage"))
    #expect(abstract.parentName == "ATRecord" && abstract.isAbstract)
    #expect(
      old.entities.filter { $0.parentName == "ATAbstractMessage" }.map(\.name) == ["ATFileMessage", "ATTextMessage"])
    #expect(abstract.attribute(named: "hidden")?.defaultValueString == "NO")
    #expect(abstract.attribute(named: "hidden")?.defaultValue == .boolean(false))
    #expect(abstract.attribute(named: "pendingState")?.defaultValueString == "0")
    let newer = try model("apptentive/apptentive-ios/ATDataModel v5 to v6 destination")
    let pending = try #require(newer.entity(named: "ATMessage")?.attribute(named: "pendingState"))
    #expect(pending.defaultValueString == "YES" && pending.defaultValue == .integer(0))
  }

  /// Damaged snapshots are errors, never crashes: truncations and random byte changes.
  @Test func damagedSnapshotsThrow() throws {
    #expect(throws: ModelSnapshotError.self) { try ModelSnapshotReader.read([]) }
    #expect(throws: ModelSnapshotError.self) { try ModelSnapshotReader.read(Array("bplist00".utf8)) }
    var rng = SplitMix64(seed: 0x5A9)
    for s in try CorpusSnapshot.all().prefix(8) {
      for cut in stride(from: 0, to: s.bytes.count, by: max(1, s.bytes.count / 16)) {
        _ = try? ModelSnapshotReader.read(Array(s.bytes.prefix(cut)))
      }
      for _ in 0..<100 {
        var bytes = s.bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        }
        _ = try? ModelSnapshotReader.read(bytes)
      }
    }
  }

  // MARK: - Writing

  /// Reading back what was written gives the same model, with the same hashes.
  @Test func writtenSnapshotsReadBackEqual() throws {
    for s in try CorpusSnapshot.all() {
      let original = try ModelSnapshotReader.read(s.bytes)
      let written = ModelSnapshotWriter.write(original)
      let again = try ModelSnapshotReader.read(written)
      #expect(again == original, "\(s.label)")
      #expect(VersionHasher.entityHashes(of: again) == VersionHasher.entityHashes(of: original), "\(s.label)")
      #expect(ModelSnapshotWriter.write(again) == written, "\(s.label): writing is not deterministic")
    }
  }

  /// The mapping models whose snapshots an older Xcode wrote (no `XDPMUniquenessConstraints`
  /// key in `XD_PStereotype`), read off the archives with Python's plistlib; among the
  /// snapshots listed in `expected`, exactly these.
  static let olderXcode: Set<String> = [
    "apptentive/apptentive-ios/ATDataModel v1 to v2", "apptentive/apptentive-ios/ATDataModel v2 to v3",
    "apptentive/apptentive-ios/ATDataModel v3 to v4",
    "billmoss/CoreDataMigrations-DefaultMigration/Model1ToModel2",
    "billmoss/CoreDataMigrations-DefaultMigration/Model3ToModel4",
    "billmoss/CoreDataMigrations-DefaultMigration/Model4ToModel5",
    "billmoss/CoreDataMigrations-HybridMigration/Model1ToModel2",
    "billmoss/CoreDataMigrations-HybridMigration/Model3ToModel4",
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-1",
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-2",
    "billmoss/CoreDataMigrations-HybridMigration/Model4ToModel5-3",
  ]

  /// Our archives have Xcode's classes (with their `$classes` chains), each class the same
  /// field keys, and each stereotype the same keys as the original snapshot's.
  ///
  /// Two differences are expected, both in snapshots an older Xcode wrote, and we write what the
  /// newer snapshots hold (the reader reads both): those have no `XDPMUniquenessConstraints`
  /// key in `XD_PStereotype` (a missing key reads as no constraints); and some (apptentive v1
  /// to v4) hold Boolean attributes' default texts as `NSMutableString` objects (`NS.string`),
  /// where we write strings. That is the Xcode version, not the model: the same model file,
  /// apptentive's ATDataModel 4, is in "v3 to v4" (older Xcode) with `NSMutableString` "NO"
  /// defaults and in "v4 to v5" with string ones (plistlib).
  @Test func writtenSnapshotsHaveXcodesStructure() throws {
    var older: Set<String> = []
    for s in try CorpusSnapshot.all() {
      var original = try ArchiveShape(s.bytes)
      let ours = try ArchiveShape(ModelSnapshotWriter.write(try ModelSnapshotReader.read(s.bytes)))
      var expectedStereotypes = original.stereotypeKeys
      let isOlder = expectedStereotypes["XD_PStereotype"]?.contains("XDPMUniquenessConstraints") == false
      if isOlder {
        expectedStereotypes["XD_PStereotype"]?.insert("XDPMUniquenessConstraints")
        older.insert(s.label.split(separator: " ").dropLast().joined(separator: " "))
        #expect(original.chains["NSMutableString"].map { $0 == ["NSMutableString", "NSString", "NSObject"] } != false)
        #expect(original.fieldKeys["NSMutableString"].map { $0 == [["NS.string"]] } != false)
        original.chains["NSMutableString"] = nil
        original.fieldKeys["NSMutableString"] = nil
      }
      #expect(ours.chains == original.chains, "\(s.label): classes")
      #expect(ours.fieldKeys == original.fieldKeys, "\(s.label): field keys")
      #expect(ours.stereotypeKeys == expectedStereotypes, "\(s.label): stereotype keys")
    }
    let listed = Set(Self.expected.keys.map { $0.split(separator: " ").dropLast().joined(separator: " ") })
    #expect(older.intersection(listed) == Self.olderXcode)
  }

  /// Models read from the corpus model files survive writing and reading, except for what the
  /// snapshot has no key for (attributes' custom class names).
  @Test func modelFilesRoundTrip() throws {
    for s in try CorpusSnapshot.all() {
      let folder = try #require(s.modelFolder())
      let model = comparable(try ModelLoader.load(path: folder.path).model)
      let again = try ModelSnapshotReader.read(ModelSnapshotWriter.write(model))
      #expect(fieldDifferences(again, model) == [], "\(s.label)")
      #expect(driftingEntities(again, model) == [], "\(s.label)")
    }
  }

  /// A numeric default that is not a number (apptentive's Integer 32 `pendingState` has
  /// `defaultValueString="YES"`, read by hand from its model files) reads from a snapshot as the
  /// model loader reads it: 0, what Foundation's `NSString integerValue` gives for a text that
  /// does not begin with a number (Apple's documentation), and what the real apptentive store
  /// holds (Specs/sqlite-store.md). Before, the snapshot reader left it nil.
  @Test func lenientDefaultsReadAsTheModelLoaderReadsThem() throws {
    var pending = AttributeDescription(name: "pendingState", type: .integer32, defaultValueString: "YES")
    pending.defaultValue = .integer(0)
    let model = ObjectModel(entities: [EntityDescription(name: "ATMessage", attributes: [pending])])
    let again = try ModelSnapshotReader.read(ModelSnapshotWriter.write(model))
    let read = try #require(again.entity(named: "ATMessage")?.attribute(named: "pendingState"))
    #expect(read.defaultValueString == "YES")
    #expect(read.defaultValue == .integer(0))
  }

  // MARK: - Hostile archives

  /// A cycle of parents, a destination that is no entity, unknown classes, values of the wrong
  /// type and missing fields are errors that name what is wrong.
  @Test func inconsistentArchivesAreErrors() throws {
    let cycle = ObjectModel(entities: [
      EntityDescription(name: "A", parentName: "B"), EntityDescription(name: "B", parentName: "A"),
    ])
    #expect(message(ModelSnapshotWriter.write(cycle))?.contains("inherits from itself") == true)

    let dangling = ObjectModel(entities: [
      EntityDescription(name: "A", relationships: [RelationshipDescription(name: "r", destinationEntity: "Gone")])
    ])
    #expect(message(ModelSnapshotWriter.write(dangling))?.contains("XD_PRK_destination of relationship 'A.r'") == true)

    let plain = ObjectModel(entities: [
      EntityDescription(
        name: "A", attributes: [AttributeDescription(name: "x", type: .integer32)],
        relationships: [
          RelationshipDescription(name: "b", destinationEntity: "A", inverseName: "b", inverseEntity: "A")
        ])
    ])
    let bytes = ModelSnapshotWriter.write(plain)
    #expect(try ModelSnapshotReader.read(bytes).entities.first?.relationships.first?.inverseName == "b")

    // An attribute of an unknown class.
    let renamed = try edit(bytes) { objects in
      for (i, o) in objects.enumerated() where o["$classname"] == .string("XDPMAttribute") {
        objects[i] = .dictionary([
          .init("$classname", .string("XDPMGizmo")), .init("$classes", .array([.string("XDPMGizmo")])),
        ])
      }
    }
    #expect(message(renamed)?.contains("expected XDPMProperty") == true)

    // The attribute type as a string.
    let wrongType = try edit(bytes) { objects in
      for (i, o) in objects.enumerated() where o == .integer(200) { objects[i] = .string("200") }
    }
    #expect(
      message(wrongType)?.contains("XD_PAttK_attributeType of attribute 'A.x': expected an integer, found a string")
        == true)

    // An entity without its name.
    let nameless = try edit(bytes) { objects in
      for (i, o) in objects.enumerated() {
        guard case .dictionary(let fields) = o,
          fields.contains(where: { $0.key == "XDBucketForGeneralizationsstorage" })
        else { continue }
        objects[i] = .dictionary(fields.filter { $0.key != "_name" })
      }
    }
    #expect(message(nameless)?.contains("has no '_name' field") == true)

    // The root is not a model.
    let notAModel = try edit(bytes) { objects in objects[1] = .string("hello") }
    #expect(message(notAModel) != nil)
  }
}

/// The error message reading these bytes gives (nil when they read).
private func message(_ bytes: [UInt8]) -> String? {
  do {
    _ = try ModelSnapshotReader.read(bytes)
    return nil
  } catch {
    return error.message
  }
}

/// The archive with its `$objects` changed by `change`.
private func edit(_ bytes: [UInt8], _ change: (inout [PropertyListValue]) -> Void) throws -> [UInt8] {
  guard case .dictionary(var top) = try BinaryPropertyListReader.read(bytes),
    let i = top.firstIndex(where: { $0.key == "$objects" }), case .array(var objects) = top[i].value
  else { throw ModelSnapshotError("not an archive") }
  change(&objects)
  top[i].value = .array(objects)
  return BinaryPropertyListWriter.write(.dictionary(top))
}

/// What an archive is made of: the class chains, each class's sets of field keys, and each
/// stereotype's keys.
struct ArchiveShape: Equatable {
  var chains: [String: [String]] = [:]
  var fieldKeys: [String: Set<Set<String>>] = [:]
  var stereotypeKeys: [String: Set<String>] = [:]

  init(_ bytes: [UInt8]) throws {
    let archive = try KeyedArchive(bytes: bytes)
    for index in archive.objects.indices {
      guard let o = try? archive.object(index) else { continue }
      chains[o.className] = o.classes
      fieldKeys[o.className, default: []].insert(Set(o.fields.map(\.key)))
      if o.className == "XDUMLStereotypeImp", let name = try archive.string(o["_name"], "name"),
        let values = try archive.dictionary(o["XDBucketForOwnedAttributesstorage"], "values")
      {
        stereotypeKeys[name, default: []].formUnion(values.map(\.key))
      }
    }
  }
}

/// A model loaded from a `contents` file, reduced to what a snapshot holds: entities and
/// properties sorted by name, no source locations, no fetched properties or fetch indexes.
func comparable(_ model: ObjectModel) -> ObjectModel {
  let byName: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  let entities = model.entities.map { e -> EntityDescription in
    var e = e
    e.location = nil
    e.fetchedProperties = []
    e.fetchIndexes = []
    e.attributes = e.attributes.map { a in
      var a = a
      a.location = nil
      return a
    }.sorted { byName($0.name, $1.name) }
    e.relationships = e.relationships.map { r in
      var r = r
      r.location = nil
      return r
    }.sorted { byName($0.name, $1.name) }
    return e
  }.sorted { byName($0.name, $1.name) }
  return ObjectModel(entities: entities, versionIdentifiers: model.versionIdentifiers)
}

/// The fields that differ between two models, as `Entity.field` and `Entity.property.field`
/// (`Entity` alone when only one model has it). Source locations are not compared, nor are
/// `customClassName` (snapshots do not hold it), fetched properties and fetch indexes.
func fieldDifferences(_ a: ObjectModel, _ b: ObjectModel) -> [String] {
  var result: [String] = []
  let a = comparable(a)
  let b = comparable(b)
  let names = Set(a.entities.map(\.name)).union(b.entities.map(\.name)).sorted()
  for name in names {
    guard let ea = a.entity(named: name), let eb = b.entity(named: name) else {
      result.append(name)
      continue
    }
    result += differingFields(ea, eb, prefix: name, skipping: ["attributes", "relationships"])
    let attributes = Set(ea.attributes.map(\.name)).union(eb.attributes.map(\.name)).sorted()
    for p in attributes {
      guard let pa = ea.attribute(named: p), let pb = eb.attribute(named: p) else {
        result.append("\(name).\(p)")
        continue
      }
      result += differingFields(pa, pb, prefix: "\(name).\(p)", skipping: ["customClassName"])
    }
    let relationships = Set(ea.relationships.map(\.name)).union(eb.relationships.map(\.name)).sorted()
    for p in relationships {
      guard let pa = ea.relationship(named: p), let pb = eb.relationship(named: p) else {
        result.append("\(name).\(p)")
        continue
      }
      result += differingFields(pa, pb, prefix: "\(name).\(p)", skipping: [])
    }
  }
  if a.versionIdentifiers != b.versionIdentifiers { result.append("versionIdentifiers") }
  return result
}

/// The stored properties (by reflection) whose printed values differ.
private func differingFields<T>(_ a: T, _ b: T, prefix: String, skipping: Set<String>) -> [String] {
  zip(Mirror(reflecting: a).children, Mirror(reflecting: b).children).compactMap { x, y in
    guard let label = x.label, !skipping.contains(label) else { return nil }
    return String(describing: x.value) == String(describing: y.value) ? nil : "\(prefix).\(label)"
  }
}
