import MapCompiler
import MapModelReader
import MapRuntime
import MapSyntax
import MapTools
import Testing

/// Core Data's lightweight rules on small models built in code: what is inferred (and how the
/// mapping says it), and what is refused, where and why.
struct MappingInferenceTests {
  static func model(_ name: String, _ entities: [EntityDescription]) -> ObjectModel {
    ObjectModel(entities: entities, versionName: name, path: "/models/\(name)/contents")
  }

  static func at(_ line: Int) -> MapRuntime.SourceLocation {
    MapRuntime.SourceLocation(file: "/models/contents", line: line, column: 5)
  }

  static func infer(_ a: ObjectModel, _ b: ObjectModel) -> InferredMapping {
    let (ha, hb) = (VersionHasher.entityHashes(of: a), VersionHasher.entityHashes(of: b))
    let result = MappingInference.infer(
      source: a, destination: b, sourceHashes: ha, destinationHashes: hb, path: "inferred")
    if let document = result.document {
      // Whatever is inferred compiles, with no warning.
      let compiled = MappingCompiler.compile(
        document, models: .init(source: a, destination: b, sourceHashes: ha, destinationHashes: hb))
      #expect(compiled.plan != nil && compiled.diagnostics.isEmpty, "\(compiled.diagnostics)")
    }
    return result
  }

  static func expressions(_ r: InferredMapping) -> [String: String] {
    var out: [String: String] = [:]
    for e in r.document?.entityMappings ?? [] {
      for p in e.attributes + e.relationships {
        out["\(e.destination!.value).\(p.name.value)"] = p.expression?.text
      }
    }
    return out
  }

  static let v1 = model(
    "V1",
    [
      EntityDescription(
        name: "Note",
        attributes: [
          AttributeDescription(name: "text", type: .string, isOptional: true),
          AttributeDescription(name: "count", type: .integer16, isOptional: true),
          AttributeDescription(name: "flag", type: .boolean, isOptional: true),
        ],
        relationships: [
          RelationshipDescription(name: "folder", destinationEntity: "Folder", inverseName: "notes", isOptional: true)
        ]),
      EntityDescription(
        name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
        relationships: [
          RelationshipDescription(
            name: "notes", destinationEntity: "Note", inverseName: "folder", isOptional: true, isToMany: true,
            maxCount: 0)
        ]),
    ])

  @Test func renamesWideningsDefaultsAndRelationshipChangesAreInferred() {
    let v2 = Self.model(
      "V2",
      [
        EntityDescription(
          name: "Memo", renamingIdentifier: "Note",
          attributes: [
            AttributeDescription(name: "body", type: .string, isOptional: true, renamingIdentifier: "text"),
            AttributeDescription(name: "count", type: .integer64, isOptional: true),
            AttributeDescription(name: "flag", type: .integer32, isOptional: false, defaultValue: .integer(0)),
            AttributeDescription(name: "added", type: .string, isOptional: false, defaultValue: .string("x")),
          ],
          relationships: [
            RelationshipDescription(
              name: "folders", destinationEntity: "Folder", inverseName: "memos", isOptional: true, isToMany: true,
              maxCount: 0, renamingIdentifier: "folder")
          ]),
        EntityDescription(
          name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
          relationships: [
            RelationshipDescription(
              name: "memos", destinationEntity: "Memo", inverseName: "folders", isOptional: true, isToMany: true,
              isOrdered: true, maxCount: 0, renamingIdentifier: "notes")
          ]),
        EntityDescription(
          name: "Tag", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)]),
      ])
    let r = Self.infer(Self.v1, v2)
    #expect(r.diagnostics.isEmpty)
    #expect(
      Self.expressions(r) == [
        "Memo.body": "$source.text",
        // Core Data's own form (a device has no defaultValue:for:).
        "Memo.flag": "TERNARY($source.flag != nil, $source.flag, 0)",
        "Memo.folders":
          "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"folder\", $source.folder)",
        "Folder.memos":
          "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"notes\", $source.notes)",
      ])
    #expect(r.addedEntities == ["Tag"])
    #expect(r.renames.contains("Note → Memo") && r.renames.contains("Note.text → Memo.body"))
  }

  @Test func aRenameIsNeverGuessed() {
    // Same type, same place, another name and no renaming identifier: removed and added.
    let v2 = Self.model(
      "V2",
      [
        EntityDescription(
          name: "Note", attributes: [AttributeDescription(name: "content", type: .string, isOptional: true)]),
        EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)]),
      ])
    let r = Self.infer(Self.v1, v2)
    #expect(r.document != nil)
    #expect(Self.expressions(r).isEmpty)
    #expect(r.renames.isEmpty)
  }

  @Test func whatCannotBeInferredIsAnErrorAtTheElementWithTheMappingToWrite() {
    let v2 = Self.model(
      "V2",
      [
        EntityDescription(
          name: "Note",
          attributes: [
            AttributeDescription(name: "text", type: .date, isOptional: true, location: Self.at(3)),
            AttributeDescription(name: "count", type: .integer16, isOptional: false, location: Self.at(4)),
            AttributeDescription(name: "fresh", type: .string, isOptional: false, location: Self.at(5)),
          ],
          relationships: [
            RelationshipDescription(
              name: "folder", destinationEntity: "Folder", inverseName: "notes", isOptional: true, location: Self.at(6))
          ]),
        EntityDescription(
          name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
          relationships: [
            RelationshipDescription(
              name: "notes", destinationEntity: "Note", inverseName: "folder", isOptional: true, location: Self.at(9))
          ]),
      ])
    let r = Self.infer(Self.v1, v2)
    #expect(r.document == nil)
    let byLine = Dictionary(grouping: r.diagnostics, by: { $0.location?.line ?? 0 }).mapValues {
      (ds: [Diagnostic]) -> [String] in ds.map(\.id)
    }
    #expect(
      byLine == [
        // Line 4, `count` becoming mandatory without a default, is inferred as Core Data's
        // builder infers it (a nil fails validation at run time); line 5 is new and mandatory.
        3: ["infer-type-change"], 5: ["infer-mandatory-without-default"], 9: ["infer-to-many-into-to-one"],
      ])
    let typeChange = r.diagnostics.first { $0.id == "infer-type-change" }!
    #expect(typeChange.message.contains("Note.text is Date but Note.text was String"))
    #expect(typeChange.message.contains("dateFromString:format:"))
    #expect(r.diagnostics.allSatisfy { $0.location?.file == "/models/contents" })
  }

  /// Core Data infers a new mandatory to-many with a minimum count of 0 (the existing objects get
  /// an empty one, which passes validation); a new mandatory to-one, or a to-many that must hold
  /// objects, would leave the existing objects without, and is refused with the reason.
  @Test func aNewMandatoryToManyIsInferredAToOneIsNot() {
    func v2(_ extra: RelationshipDescription) -> ObjectModel {
      Self.model(
        "V2",
        [
          Self.v1.entities[0],
          EntityDescription(
            name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: Self.v1.entities[1].relationships + [extra]),
          EntityDescription(name: "Label", attributes: [AttributeDescription(name: "name", type: .string)]),
        ])
    }
    let labels = RelationshipDescription(
      name: "labels", destinationEntity: "Label", isOptional: false, isToMany: true, minCount: 0, maxCount: 0,
      location: Self.at(7))
    let inferred = Self.infer(Self.v1, v2(labels))
    #expect(inferred.document != nil)
    #expect(inferred.diagnostics.isEmpty, "\(inferred.diagnostics)")
    #expect(Self.expressions(inferred).isEmpty)  // nothing to set: every Folder gets no labels

    var atLeastTwo = labels
    atLeastTwo.minCount = 2
    let owner = RelationshipDescription(
      name: "owner", destinationEntity: "Label", isOptional: false, maxCount: 1, location: Self.at(7))
    for (relationship, reason) in [
      (atLeastTwo, "Folder.labels is new and must hold at least 2 objects"),
      (owner, "Folder.owner is a new mandatory to-one relationship"),
    ] {
      let r = Self.infer(Self.v1, v2(relationship))
      #expect(r.document == nil)
      #expect(r.diagnostics.map(\.id) == ["infer-mandatory-without-default"])
      #expect(r.diagnostics.first?.location?.line == 7)
      #expect(r.diagnostics.first?.message.contains(reason) == true, "\(r.diagnostics)")
    }
  }

  @Test func hierarchiesMoveButDoNotMerge() {
    let a = Self.model(
      "A",
      [
        EntityDescription(
          name: "Cat", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)]),
        EntityDescription(
          name: "Dog", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)]),
      ])
    let merged = Self.model(
      "B",
      [
        EntityDescription(
          name: "Pet", isAbstract: true,
          attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)], location: Self.at(2)),
        EntityDescription(name: "Cat", parentName: "Pet"),
        EntityDescription(name: "Dog", parentName: "Pet"),
      ])
    #expect(Self.infer(a, merged).diagnostics.map(\.id) == ["infer-merged-hierarchy"])
    // One entity moved under a new abstract parent, the property moved up: inferred.
    let single = Self.model(
      "A",
      [
        EntityDescription(
          name: "Cat", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)])
      ])
    let moved = Self.model(
      "B",
      [
        EntityDescription(
          name: "Pet", isAbstract: true,
          attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)]),
        EntityDescription(name: "Cat", parentName: "Pet"),
      ])
    let r = Self.infer(single, moved)
    #expect(r.diagnostics.isEmpty && r.document?.entityMappings.count == 1)
  }

  @Test func duplicateRenamingIdentifiersAreRefused() {
    let v2 = Self.model(
      "V2",
      [
        EntityDescription(
          name: "Note",
          attributes: [
            AttributeDescription(name: "a", type: .string, isOptional: true, renamingIdentifier: "text"),
            AttributeDescription(name: "b", type: .string, isOptional: true, renamingIdentifier: "text"),
          ]),
        EntityDescription(name: "Folder", renamingIdentifier: "Note", attributes: [], location: Self.at(7)),
      ])
    let ids = Self.infer(Self.v1, v2).diagnostics.map(\.id)
    #expect(ids == ["infer-duplicate-renaming-id"])
  }
}
