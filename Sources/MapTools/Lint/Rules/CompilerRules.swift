import MapRuntime

/// Catalogue entries for Core Data pitfalls that the compiler itself reports (so `mapc compile`
/// refuses them too). The linter reports every compiler diagnostic under its compiler id.
enum CompilerRules {
  static let person = DestinationEntityUnproduced.person
  static let personWithAge = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="name" optional="YES" attributeType="String"/>
    </entity>
    """

  static let copyHashMismatch = LintRule(
    id: "map-copy-hash-mismatch", severity: .error,
    title: "A copy mapping whose entities' version hashes differ",
    explanation: """
      type="copy" (NSCopyEntityMappingType) promises that the source and destination entities \
      are the same: Core Data copies the objects without looking at attribute mappings. When \
      the entity changed between the two models (an attribute added, a type or optionality \
      changed: anything that changes its version hash), the copy is refused as a mismatch \
      between mapping and models, or copies data the destination entity cannot hold. Use \
      type="transform", which maps every destination attribute. Leaving type out lets mapc \
      choose copy or transform from the hashes.
      """,
    suppression: "compiler errors cannot be suppressed: fix the mapping",
    origin: .compiler,
    bad: LintExample(
      source: person, destination: personWithAge,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="‸copy" source="Person" destination="Person"/>
        """)),
    good: LintExample(
      source: person, destination: personWithAge,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """)))

  /// Hashes of `person` in the examples' source model (`mapc hash`).
  static let personHash = "Pa6wqlCRDS58zWKVzF9oeN5HNv76QcI0Mtyrr/VyuGM="
  static let sourceModelHash = "i69AoZGo0LzM67mPEL+e0ruJgqpF2OCTjynJroqKVLI="

  static let pinnedHashMismatch = LintRule(
    id: "map-pinned-hash-mismatch", severity: .error,
    title: "The mapping's recorded model hashes no longer match the model files",
    explanation: """
      A compiled Core Data mapping model records the version hash of every source and \
      destination entity; when the models change after the mapping was made, Core Data does \
      not use it and migration fails with "Mismatch between mapping and source/destination \
      models" — the classic failure after editing a model without regenerating the mapping. \
      mapc mappings can record the same hashes: versionHash="…" on <sourceModel> and \
      <destinationModel> (a hash of all entity hashes) and <entityVersionHash entity="…" \
      hash="…"/> children. Each pin that no longer matches is reported. Review the mapping \
      against the changed model, then run mapc lint --update-pins to record the current \
      hashes.
      """,
    suppression: "compiler errors cannot be suppressed: review the mapping, then mapc lint --update-pins",
    origin: .compiler,
    bad: LintExample(
      source: person, destination: person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """,
        models: """
            <sourceModel path="Source.xcdatamodel">
              ‸<entityVersionHash entity="Person" hash="c3RhbGUgaGFzaCBmcm9tIGFuIG9sZGVyIG1vZGVsIQ=="/>
            </sourceModel>
            <destinationModel path="Destination.xcdatamodel"/>
          """)),
    good: LintExample(
      source: person, destination: person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """,
        models: """
            <sourceModel path="Source.xcdatamodel" versionHash="\(sourceModelHash)">
              <entityVersionHash entity="Person" hash="\(personHash)"/>
            </sourceModel>
            <destinationModel path="Destination.xcdatamodel"/>
          """)))

  static let toManyIntoToOne = LintRule(
    id: "map-to-many-into-to-one", severity: .error,
    title: "A to-many value mapped into a to-one relationship",
    explanation: """
      A relationship expression that can give several objects for one source object (a \
      to-many key path, the instances of a forEach mapping) cannot fill a to-one \
      relationship: Core Data stops the migration with "Unacceptable type of value for to-one \
      relationship". This happens when a to-many relationship becomes to-one in a new model \
      version and the mapping keeps the old expression. Choose the one object to keep \
      ([FIRST], a SUBQUERY, a fetch). The implicit mappings Xcode generates are checked by \
      lint-implicit-to-many-into-to-one.
      """,
    suppression: "compiler errors cannot be suppressed: fix the expression",
    origin: .compiler,
    bad: LintExample(
      source: ImplicitToManyIntoToOne.authorAndBooks, destination: ImplicitToManyIntoToOne.authorAndOneBook,
      mapping: exampleMapping(
        """
          <entityMapping name="AuthorToAuthor" type="transform" source="Author" destination="Author">
            <relationship name="books">‸FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)</relationship>
          </entityMapping>
          <entityMapping name="BookToBook" type="transform" source="Book" destination="Book"/>
        """)),
    good: LintExample(
      source: ImplicitToManyIntoToOne.authorAndBooks, destination: ImplicitToManyIntoToOne.authorAndOneBook,
      mapping: exampleMapping(
        """
          <entityMapping name="AuthorToAuthor" type="transform" source="Author" destination="Author">
            <relationship name="books">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books[FIRST])</relationship>
          </entityMapping>
          <entityMapping name="BookToBook" type="transform" source="Book" destination="Book"/>
        """)))

  static let all = [copyHashMismatch, pinnedHashMismatch, toManyIntoToOne, modelDrift]
}
