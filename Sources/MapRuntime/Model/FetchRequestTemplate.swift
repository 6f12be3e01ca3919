/// A fetch request stored in a model: a template (`<fetchRequest>` under `<model>`) or the
/// request of a fetched property.
public struct FetchRequestTemplate: Sendable, Hashable, Codable {
  public enum ResultType: Int, Sendable, Hashable, Codable {
    case managedObjects = 0
    case objectIDs = 1
    case dictionaries = 2
  }

  public var name: String
  public var entity: String
  /// NSPredicate format text (may use `$VARIABLE` substitution variables).
  public var predicateString: String?
  public var resultType: ResultType
  public var fetchLimit: Int
  public var fetchBatchSize: Int
  public var includesSubentities: Bool
  public var includesPropertyValues: Bool
  public var includesPendingChanges: Bool
  public var returnsObjectsAsFaults: Bool
  public var returnsDistinctResults: Bool
  public var location: SourceLocation?

  public init(
    name: String,
    entity: String,
    predicateString: String? = nil,
    resultType: ResultType = .managedObjects,
    fetchLimit: Int = 0,
    fetchBatchSize: Int = 0,
    includesSubentities: Bool = false,
    includesPropertyValues: Bool = false,
    includesPendingChanges: Bool = false,
    returnsObjectsAsFaults: Bool = false,
    returnsDistinctResults: Bool = false,
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.entity = entity
    self.predicateString = predicateString
    self.resultType = resultType
    self.fetchLimit = fetchLimit
    self.fetchBatchSize = fetchBatchSize
    self.includesSubentities = includesSubentities
    self.includesPropertyValues = includesPropertyValues
    self.includesPendingChanges = includesPendingChanges
    self.returnsObjectsAsFaults = returnsObjectsAsFaults
    self.returnsDistinctResults = returnsDistinctResults
    self.location = location
  }
}

/// A fetched property: a named fetch request on an entity. Not stored, not hashed.
public struct FetchedPropertyDescription: Sendable, Hashable, Codable {
  public var name: String
  public var isOptional: Bool
  public var fetchRequest: FetchRequestTemplate
  public var userInfo: UserInfo
  public var location: SourceLocation?

  public init(
    name: String, isOptional: Bool = true, fetchRequest: FetchRequestTemplate,
    userInfo: UserInfo = UserInfo(), location: SourceLocation? = nil
  ) {
    self.name = name
    self.isOptional = isOptional
    self.fetchRequest = fetchRequest
    self.userInfo = userInfo
    self.location = location
  }
}

/// A named configuration: a subset of the model's entities.
public struct ModelConfiguration: Sendable, Hashable, Codable {
  public var name: String
  public var memberEntities: [String]
  public init(name: String, memberEntities: [String]) {
    self.name = name
    self.memberEntities = memberEntities
  }
}

/// One `<fetchIndex>`: a named index over properties, optionally partial.
public struct FetchIndexDescription: Sendable, Hashable, Codable {
  public struct Element: Sendable, Hashable, Codable {
    public var property: String
    public var type: String
    public var ascending: Bool
    public init(property: String, type: String = "Binary", ascending: Bool = true) {
      self.property = property
      self.type = type
      self.ascending = ascending
    }
  }
  public var name: String
  public var elements: [Element]
  public var partialIndexPredicate: String?
  public init(name: String, elements: [Element], partialIndexPredicate: String? = nil) {
    self.name = name
    self.elements = elements
    self.partialIndexPredicate = partialIndexPredicate
  }

  /// The property this fetch index is Xcode's way of marking indexed (the "Indexed" box): one
  /// ascending element and no predicate, named `by<Property>Index` (letter case aside). Core
  /// Data's store and model cache name such an index after the property [real: XCServer
  /// 2.0.0's `byIdentifierIndex` is `Z_Bot_identifier`, and its cache's index `identifier`]. Nil
  /// for any other fetch index, a descending one of that name among them, which keeps its own
  /// name (`Specs/sqlite-store.md`).
  public var indexedProperty: String? {
    guard elements.count == 1, elements[0].ascending, partialIndexPredicate == nil,
      name.lowercased() == "by\(elements[0].property.lowercased())index"
    else { return nil }
    return elements[0].property
  }
}
