/// One attribute of an entity, as an Xcode data model declares it.
public struct AttributeDescription: Sendable, Hashable, Codable {
  public var name: String
  public var type: AttributeType
  public var isOptional: Bool
  public var isTransient: Bool
  /// `derived="YES"`: the value is computed from `derivationExpression` by the store.
  public var isDerived: Bool
  public var derivationExpression: String?
  /// The default as Xcode wrote it (`defaultValueString`), and parsed for `type`.
  public var defaultValueString: String?
  public var defaultValue: ModelConstant?
  /// A default mapc keeps without reading it: a model cache's default of a class it does not
  /// know (a Transformable's, of the app's own class), as a keyed archive of its own whose
  /// root is the value. Written back only into a model cache (Specs/sqlite-store.md §7.2).
  public var archivedDefaultValue: [UInt8]?
  /// Validation bounds as written, and parsed: numbers for numeric types, lengths for strings,
  /// dates (`min/maxDateTimeInterval`) for dates.
  public var minValueString: String?
  public var maxValueString: String?
  public var minValue: ModelConstant?
  public var maxValue: ModelConstant?
  public var regularExpression: String?
  public var allowsExternalBinaryDataStorage: Bool
  public var preservesValueInHistoryOnDeletion: Bool
  public var allowsCloudEncryption: Bool
  public var valueTransformerName: String?
  public var customClassName: String?
  public var isIndexed: Bool
  public var isIndexedBySpotlight: Bool
  public var isStoredInExternalRecord: Bool
  /// Xcode's "Renaming ID" (`elementID`).
  public var renamingIdentifier: String?
  public var versionHashModifier: String?
  public var userInfo: UserInfo
  /// A Composite attribute's elements (`NSCompositeAttributeDescription.elements`), in model
  /// order; an element may itself be a composite. Empty for every other type.
  public var compositeElements: [AttributeDescription]
  public var location: SourceLocation?

  public init(
    name: String,
    type: AttributeType,
    isOptional: Bool = false,
    isTransient: Bool = false,
    isDerived: Bool = false,
    derivationExpression: String? = nil,
    defaultValueString: String? = nil,
    defaultValue: ModelConstant? = nil,
    archivedDefaultValue: [UInt8]? = nil,
    minValueString: String? = nil,
    maxValueString: String? = nil,
    minValue: ModelConstant? = nil,
    maxValue: ModelConstant? = nil,
    regularExpression: String? = nil,
    allowsExternalBinaryDataStorage: Bool = false,
    preservesValueInHistoryOnDeletion: Bool = false,
    allowsCloudEncryption: Bool = false,
    valueTransformerName: String? = nil,
    customClassName: String? = nil,
    isIndexed: Bool = false,
    isIndexedBySpotlight: Bool = false,
    isStoredInExternalRecord: Bool = false,
    renamingIdentifier: String? = nil,
    versionHashModifier: String? = nil,
    userInfo: UserInfo = UserInfo(),
    compositeElements: [AttributeDescription] = [],
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
    self.isTransient = isTransient
    self.isDerived = isDerived
    self.derivationExpression = derivationExpression
    self.defaultValueString = defaultValueString
    self.defaultValue = defaultValue
    self.archivedDefaultValue = archivedDefaultValue
    self.minValueString = minValueString
    self.maxValueString = maxValueString
    self.minValue = minValue
    self.maxValue = maxValue
    self.regularExpression = regularExpression
    self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
    self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
    self.allowsCloudEncryption = allowsCloudEncryption
    self.valueTransformerName = valueTransformerName
    self.customClassName = customClassName
    self.isIndexed = isIndexed
    self.isIndexedBySpotlight = isIndexedBySpotlight
    self.isStoredInExternalRecord = isStoredInExternalRecord
    self.renamingIdentifier = renamingIdentifier
    self.versionHashModifier = versionHashModifier
    self.userInfo = userInfo
    self.compositeElements = compositeElements
    self.location = location
  }
}
