import MapRuntime

extension CompilerRules {
  /// An Xcode mapping model whose embedded model snapshot no longer matches the model file
  /// (`Specs/xcmappingmodel.md` §5).
  static let modelDrift = LintRule(
    id: "xcmap-model-drift", severity: .error,
    title: "An Xcode mapping model made for an older version of its model",
    explanation: """
      An .xcmappingmodel keeps a copy (a snapshot) of the source and destination models it was \
      made for, and Xcode compiles the mapping's entity version hashes from those copies, not \
      from the model files. When a model is edited after the mapping model was made (an \
      attribute added, a type or optionality changed) and the mapping is not refreshed, the app \
      builds and ships, and the migration fails on the user's device: Core Data finds no \
      mapping model whose hashes match the store ("Can't find mapping model for migration") or \
      refuses the one given ("Mismatch between mapping and source/destination models"). Core \
      Data matches a mapping model by the hashes its entity mappings record, so mapc compares \
      with the model files the mapping belongs to only the entities its entity mappings name \
      (an entity of the snapshot no entity mapping names may change or go), and names each \
      entity mapping whose source or destination entity changed, with what changed. Open the \
      mapping model in Xcode and choose Editor ▸ Refresh Data Models, then review the mapping; \
      or regenerate it with mapc import and mapc export.
      """,
    suppression: "compiler errors cannot be suppressed: refresh the mapping model's snapshots",
    origin: .compiler,
    bad: LintExample(
      source: person, destination: personWithAge, mapping: xcodeMapping(marked: true),
      snapshotEntities: [person, person]),
    good: LintExample(source: person, destination: personWithAge, mapping: xcodeMapping(marked: false)))

  /// An Xcode mapping model of Person to Person whose snapshots are filled in when the example is
  /// written; `‸` at the destination snapshot when `marked`.
  static func xcodeMapping(marked: Bool) -> String {
    """
    <?xml version="1.0" standalone="yes"?>
    <database>
        <object type="XDDEVMAPPINGMODEL" id="z102">
            <attribute name="sourcemodelpath" type="string">Source.xcdatamodel</attribute>
            <attribute name="sourcemodeldata" type="binary">SOURCE_SNAPSHOT</attribute>
            <attribute name="destinationmodelpath" type="string">Destination.xcdatamodel</attribute>
            \(marked ? "‸" : "")<attribute name="destinationmodeldata" type="binary">DESTINATION_SNAPSHOT</attribute>
            <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z103"></relationship>
        </object>
        <object type="XDDEVENTITYMAPPING" id="z103">
            <attribute name="sourcename" type="string">Person</attribute>
            <attribute name="mappingtypename" type="string">Undefined</attribute>
            <attribute name="mappingnumber" type="int16">1</attribute>
            <attribute name="destinationname" type="string">Person</attribute>
            <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z102"></relationship>
        </object>
    </database>

    """
  }
}
