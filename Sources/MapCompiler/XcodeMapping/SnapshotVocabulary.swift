import MapRuntime

/// Class names and keys of Xcode's private `XDPMModel` archive (the model snapshots inside an
/// `.xcmappingmodel`), shared by `ModelSnapshotReader` and `ModelSnapshotWriter`.
/// `Specs/xcmappingmodel-snapshots.md` describes each one.
enum XDPM {
  // MARK: Classes, with their `$classes` chains as Xcode writes them.

  static let model = "XDPMModel"
  static let package = "XDModelPackage"
  static let entity = "XDPMEntity"
  static let attribute = "XDPMAttribute"
  static let relationship = "XDPMRelationship"
  /// The superclass of every property class (attributes, relationships, fetched properties).
  static let property = "XDPMProperty"
  static let stereotype = "XDUMLStereotypeImp"
  static let stereotypeProperty = "XDUMLPropertyImp"
  static let generalization = "XDUMLGeneralizationImp"
  static let umlClass = "XDUMLClassImp"

  static let chains: [String: [String]] = [
    model: [model, "XDModel", "NSObject"],
    package: [
      package, "XDUMLPackageImp", "XDUMLNamespaceImp", "XDUMLNamedElementImp", "XDUMLElementImp",
      "NSObject",
    ],
    entity: [
      entity, umlClass, "XDUMLClassifierImp", "XDUMLNamespaceImp", "XDUMLNamedElementImp",
      "XDUMLElementImp", "NSObject",
    ],
    attribute: [attribute, property, stereotypeProperty, "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"],
    relationship: [
      relationship, property, stereotypeProperty, "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject",
    ],
    stereotype: [
      stereotype, umlClass, "XDUMLClassifierImp", "XDUMLNamespaceImp", "XDUMLNamedElementImp",
      "XDUMLElementImp", "NSObject",
    ],
    stereotypeProperty: [stereotypeProperty, "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"],
    generalization: [generalization, "XDUMLNamedElementImp", "XDUMLElementImp", "NSObject"],
    umlClass: [
      umlClass, "XDUMLClassifierImp", "XDUMLNamespaceImp", "XDUMLNamedElementImp", "XDUMLElementImp",
      "NSObject",
    ],
  ]

  // MARK: Fields of the UML objects.

  static let rootPackage = "_xd_rootPackage"
  static let versionIdentifier = "_modelVersionIdentifier"
  static let name = "_name"
  static let isAbstract = "_isAbstract"
  static let general = "_general"
  static let classes = "XDBucketForClassesstorage"
  static let packages = "XDBucketForPackagesstorage"
  static let interfaces = "XDBucketForInterfacesstorage"
  static let dataTypes = "XDBucketForDataTypesstorage"
  static let ownedAttributes = "XDBucketForOwnedAttributesstorage"
  static let stereotypes = "XDBucketForStereotypesstorage"
  static let generalizations = "XDBucketForGeneralizationsstorage"
  static let specializations = "XDBucketForSpecializationsstorage"
  static let defaultValue = "_default"

  // MARK: Stereotypes and their keys.

  static let entityStereotype = "XD_PStereotype"
  static let propertyStereotype = "XD_PPropStereotype"
  static let attributeStereotype = "XD_PAtt_Stereotype"
  static let relationshipStereotype = "XD_PR_Stereotype"

  /// `XD_PStereotype`, in the order Xcode lists them.
  enum EntityKey {
    static let compoundIndexes = "XDPMCompoundIndexes"
    static let elementID = "XD_PSK_elementID"
    static let uniquenessConstraints = "XDPMUniquenessConstraints"
    static let versionHashModifier = "XD_PSK_versionHashModifier"
    static let fetchRequests = "XD_PSK_fetchRequestsArray"
    static let isAbstract = "XD_PSK_isAbstract"
    static let userInfo = "XD_PSK_userInfo"
    static let classMapping = "XD_PSK_classMapping"
    static let className = "XD_PSK_entityClassName"
  }

  /// `XD_PPropStereotype`, in the order Xcode lists them.
  enum PropertyKey {
    static let isStoredInTruthFile = "XD_PPSK_isStoredInTruthFile"
    static let versionHashModifier = "XD_PPSK_versionHashModifier"
    static let userInfo = "XD_PPSK_userInfo"
    static let isIndexed = "XD_PPSK_isIndexed"
    static let isOptional = "XD_PPSK_isOptional"
    static let isSpotlightIndexed = "XD_PPSK_isSpotlightIndexed"
    static let elementID = "XD_PPSK_elementID"
    static let isTransient = "XD_PPSK_isTransient"
  }

  /// `XD_PAtt_Stereotype`, in the order Xcode lists them.
  enum AttributeKey {
    static let defaultValue = "XD_PAttK_defaultValueAsString"
    static let allowsExternalStorage = "XD_PAttK_allowsExternalBinaryDataStorage"
    static let minValue = "XD_PAttK_minValueString"
    static let attributeType = "XD_PAttK_attributeType"
    static let maxValue = "XD_PAttK_maxValueString"
    static let valueTransformer = "XD_PAttK_valueTransformerName"
    static let regularExpression = "XD_PAttK_regularExpressionString"
  }

  /// `XD_PR_Stereotype`, in the order Xcode lists them.
  enum RelationshipKey {
    static let minCount = "XD_PRK_minCount"
    static let deleteRule = "XD_PRK_deleteRule"
    static let maxCount = "XD_PRK_maxCount"
    static let destination = "XD_PRK_destination"
    static let isToMany = "XD_PRK_isToMany"
    static let ordered = "XD_PRK_ordered"
    static let inverse = "XD_PRK_inverseRelationship"
  }

  /// The class every entity's `XD_PSK_classMapping` names.
  static let genericRecordClass = "XDGenericRecordClass"

  /// `NSDeleteRule` raw values.
  static func deleteRule(code: Int64) -> DeleteRule? {
    switch code {
    case 0: .noAction
    case 1: .nullify
    case 2: .cascade
    case 3: .deny
    default: nil
    }
  }

  static func code(of rule: DeleteRule) -> Int64 {
    switch rule {
    case .noAction: 0
    case .nullify: 1
    case .cascade: 2
    case .deny: 3
    }
  }

  /// The attribute type with this `NSAttributeType` raw value.
  static func attributeType(code: Int64) -> AttributeType? {
    AttributeType.allCases.first { Int64($0.coreDataCode) == code }
  }
}
