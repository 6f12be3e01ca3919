/// A linked entity mapping: entity indexes resolved, expressions turned into closures. Kept in
/// parallel arrays of plain values so that running it for each object copies no strings.
final class LinkedMapping {
  let mapping: EntityMapping
  let sourceEntity: Int?
  let destinationEntity: Int?
  let sourceExpression: LinkedCode?
  let sourceLocation: SourceLocation?
  let forEach: LinkedCode?
  /// The column of `key` when `forEach` is `$source.key` with `key` a Transformable attribute
  /// of the source entity (what the parallel pass 1 reads directly), else nil.
  var forEachColumn: Int?
  /// Attribute mappings: destination column and expression.
  let attributeColumns: [Int]
  let attributeCodes: [LinkedCode]
  /// How each attribute mapping is carried out: through its expression, or for the common
  /// shapes (`$item`, `$index`, `$source.key`, `$source.key[$index]`, a constant) directly.
  /// Filled in by `Linker`.
  var attributeOps: [AttributeOp] = []
  /// Everything pass 1 needs to create this mapping's instances (nil without a destination
  /// entity). Set by `RunPreparation` once the mapping is linked.
  var creation: CreationPlan?
  /// Relationship mappings: destination column, expression, to-many or not.
  let relationshipColumns: [Int]
  let relationshipCodes: [LinkedCode]
  let relationshipIsToMany: [Bool]
  /// For each relationship mapping, the entity mapping whose association table gives its value
  /// directly (see `Linker.associationLink`), or -1.
  let relationshipLinks: [Int]
  /// Whether every relationship mapping has such a link (then pass 2 may take `DirectLink`s).
  let allRelationshipsLinked: Bool
  /// Names of the attribute mappings then the relationship mappings (`Frame.property` indexes them).
  let propertyNames: [String]
  /// Where each property mapping is in the mapping file (same order as `propertyNames`).
  let propertyLocations: [SourceLocation?]

  init(
    mapping: EntityMapping, sourceEntity: Int?, destinationEntity: Int?, sourceExpression: LinkedCode?,
    sourceLocation: SourceLocation?, forEach: LinkedCode?,
    attributes: [(name: String, column: Int, code: LinkedCode, location: SourceLocation?)],
    relationships: [(name: String, column: Int, code: LinkedCode, location: SourceLocation?, isToMany: Bool, link: Int)]
  ) {
    self.mapping = mapping
    self.sourceEntity = sourceEntity
    self.destinationEntity = destinationEntity
    self.sourceExpression = sourceExpression
    self.sourceLocation = sourceLocation
    self.forEach = forEach
    attributeColumns = attributes.map(\.column)
    attributeCodes = attributes.map(\.code)
    relationshipColumns = relationships.map(\.column)
    relationshipCodes = relationships.map(\.code)
    relationshipIsToMany = relationships.map(\.isToMany)
    relationshipLinks = relationships.map(\.link)
    allRelationshipsLinked = relationships.allSatisfy { $0.link >= 0 }
    propertyNames = attributes.map(\.name) + relationships.map(\.name)
    propertyLocations = attributes.map(\.location) + relationships.map(\.location)
  }

  /// The location of the mapping of property `name`, else of the entity mapping.
  func location(ofProperty name: String) -> SourceLocation? {
    propertyNames.firstIndex(of: name).flatMap { propertyLocations[$0] } ?? mapping.location
  }
}

/// What creating one instance of an entity mapping uses, looked up once: the destination
/// table, the attribute expressions and how each is carried out, the association table.
final class CreationPlan {
  let table: EntityTable
  let entity: Int
  let codes: [LinkedCode]
  let columns: [Int]
  let ops: [AttributeOp]
  let associations: Associations
  /// Whether every attribute mapping has a direct form, so instances can be made without
  /// evaluating any expression (`$item` and `$index` only with a forEach).
  let isDirect: Bool

  init(
    table: EntityTable, entity: Int, codes: [LinkedCode], columns: [Int], ops: [AttributeOp],
    associations: Associations,
    hasForEach: Bool
  ) {
    self.table = table
    self.entity = entity
    self.codes = codes
    self.columns = columns
    self.ops = ops
    self.associations = associations
    self.isDirect = ops.allSatisfy { op in
      switch op {
      case .code: false
      case .index, .item: hasForEach
      case .constant, .sharedText, .sourceValue, .sourceElement, .sourceDate: true
      }
    }
  }
}

/// A way to set one attribute of a new destination instance.
enum AttributeOp {
  /// Evaluate the expression and store its value, converted to the attribute's type.
  case code
  /// `$index` into an integer attribute whose range holds every possible index.
  case index(IntColumn)
  /// A constant, already converted to the attribute's type.
  case constant(Value)
  /// A constant string, stored once in the column's side table and shared by every object.
  case sharedText(TextColumn, UInt64)
  /// `$item`.
  case item
  /// `$source.key`, an attribute of the mapping's source entity (other entities, such as
  /// subentities, take the expression).
  case sourceValue(entity: Int, column: Int)
  /// `$source.key[$index]`, with `key` a Transformable attribute of the mapping's source entity
  /// that holds an array (anything else takes the expression).
  case sourceElement(entity: Int, column: Int)
  /// `FUNCTION($entityPolicy, "dateFromString:format:", $source.key, "pattern")` into a Date
  /// attribute, with `key` an attribute of the mapping's source entity and the default policy.
  case sourceDate(entity: Int, column: Int, pattern: DatePattern)
}
