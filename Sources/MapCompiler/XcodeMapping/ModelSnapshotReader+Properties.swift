import MapModelReader
import MapRuntime

extension SnapshotModelReader {
  /// An `XDPMAttribute`: `XD_PPropStereotype` and `XD_PAtt_Stereotype`.
  func attribute(_ p: PropertyRecord) throws(ModelSnapshotError) -> AttributeDescription {
    let (what, s, a) = try stereotypes(p, "attribute", XDPM.attributeStereotype)
    let code = try a.integer(XDPM.AttributeKey.attributeType, nil)
    guard let type = XDPM.attributeType(code: code) else {
      throw ModelSnapshotError(
        "\(a.values[XDPM.AttributeKey.attributeType].map { SnapshotDecoder.describe($0.holder) } ?? "") "
          + "\(XDPM.AttributeKey.attributeType) of \(what): \(code) is not an NSAttributeType")
    }
    var result = AttributeDescription(
      name: p.name, type: type,
      isOptional: try s.flag(XDPM.PropertyKey.isOptional, nil),
      isTransient: try s.flag(XDPM.PropertyKey.isTransient, nil),
      defaultValueString: try a.text(XDPM.AttributeKey.defaultValue),
      minValueString: try a.text(XDPM.AttributeKey.minValue, numbers: true),
      maxValueString: try a.text(XDPM.AttributeKey.maxValue, numbers: true),
      regularExpression: try a.text(XDPM.AttributeKey.regularExpression),
      allowsExternalBinaryDataStorage: try a.flag(XDPM.AttributeKey.allowsExternalStorage, false),
      valueTransformerName: try a.text(XDPM.AttributeKey.valueTransformer),
      isIndexed: try s.flag(XDPM.PropertyKey.isIndexed, false),
      isIndexedBySpotlight: try s.flag(XDPM.PropertyKey.isSpotlightIndexed, false),
      isStoredInExternalRecord: try s.flag(XDPM.PropertyKey.isStoredInTruthFile, false),
      renamingIdentifier: try s.text(XDPM.PropertyKey.elementID),
      versionHashModifier: try s.text(XDPM.PropertyKey.versionHashModifier),
      userInfo: try s.userInfo(XDPM.PropertyKey.userInfo))
    // Parsed as the model loader parses the same texts, a numeric default that is not a number
    // leniently too (apptentive's "YES" for an Integer 32 is 0); a text that is not a value of
    // the type leaves the parsed value nil (the text is kept).
    result.defaultValue = result.defaultValueString.flatMap { ModelValueParser.loadedDefaultValue($0, for: type) }
    result.minValue = result.minValueString.flatMap { ModelValueParser.bound($0, for: type) }
    result.maxValue = result.maxValueString.flatMap { ModelValueParser.bound($0, for: type) }
    return result
  }

  /// An `XDPMRelationship`: `XD_PPropStereotype` and `XD_PR_Stereotype`.
  func relationship(_ p: PropertyRecord) throws(ModelSnapshotError) -> RelationshipDescription {
    let (what, s, r) = try stereotypes(p, "relationship", XDPM.relationshipStereotype)
    guard let destinationObject = try r.object(XDPM.RelationshipKey.destination, classes: [XDPM.entity]) else {
      throw ModelSnapshotError(
        "\(XDPM.RelationshipKey.destination) of \(what) (\(SnapshotDecoder.describe(p.object))) is missing or null")
    }
    guard let destination = entities[destinationObject.index] else {
      throw ModelSnapshotError(
        "\(XDPM.RelationshipKey.destination) of \(what) refers to \(SnapshotDecoder.describe(destinationObject)), which is not an entity of the model"
      )
    }
    var inverse: PropertyRecord? = nil
    if let o = try r.object(XDPM.RelationshipKey.inverse, classes: [XDPM.relationship]) {
      guard let record = properties[o.index] else {
        throw ModelSnapshotError(
          "\(XDPM.RelationshipKey.inverse) of \(what) refers to \(SnapshotDecoder.describe(o)), which is not a relationship of the model"
        )
      }
      inverse = record
    }
    let toMany = try r.flag(XDPM.RelationshipKey.isToMany, nil)
    let minCount = try r.integer(XDPM.RelationshipKey.minCount, 0)
    let maxCount = try r.integer(XDPM.RelationshipKey.maxCount, toMany ? 0 : 1)
    guard let minCount = Int(exactly: minCount), let maxCount = Int(exactly: maxCount),
      (0...Int(Int32.max)).contains(minCount), (0...Int(Int32.max)).contains(maxCount)
    else {
      throw ModelSnapshotError(
        "\(what) (\(SnapshotDecoder.describe(p.object))): minCount \(minCount) and maxCount \(maxCount) are not counts")
    }
    let ruleCode = try r.integer(XDPM.RelationshipKey.deleteRule, 1)
    guard let rule = XDPM.deleteRule(code: ruleCode) else {
      throw ModelSnapshotError(
        "\(XDPM.RelationshipKey.deleteRule) of \(what) (\(SnapshotDecoder.describe(p.object))): \(ruleCode) is not an NSDeleteRule"
      )
    }
    return RelationshipDescription(
      name: p.name, destinationEntity: destination.name,
      inverseName: inverse?.name, inverseEntity: inverse?.entity,
      isOptional: try s.flag(XDPM.PropertyKey.isOptional, nil),
      isTransient: try s.flag(XDPM.PropertyKey.isTransient, nil),
      isToMany: toMany,
      isOrdered: try r.flag(XDPM.RelationshipKey.ordered, false),
      minCount: minCount, maxCount: maxCount,
      deleteRule: rule,
      renamingIdentifier: try s.text(XDPM.PropertyKey.elementID),
      versionHashModifier: try s.text(XDPM.PropertyKey.versionHashModifier),
      userInfo: try s.userInfo(XDPM.PropertyKey.userInfo))
  }

  /// How messages name property `p` (a `kind`), and its two stereotypes: the property one
  /// (`XD_PPropStereotype`) and `kindStereotype`.
  private func stereotypes(_ p: PropertyRecord, _ kind: String, _ kindStereotype: String)
    throws(ModelSnapshotError) -> (what: String, property: Stereotype, kind: Stereotype)
  {
    let what = "\(kind) '\(p.entity).\(p.name)'"
    let all = try decoder.stereotypes(of: p.object, what)
    let property = try decoder.stereotype(XDPM.propertyStereotype, in: all, of: p.object, what)
    return (what, property, try decoder.stereotype(kindStereotype, in: all, of: p.object, what))
  }
}
