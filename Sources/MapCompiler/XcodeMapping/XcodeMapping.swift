import MapRuntime

/// An Xcode mapping model (`X.xcmappingmodel/xcmapping.xml`) as read: the live object graph of
/// Xcode's mapping schema, entity mappings in `mappingnumber` order, every value with its place
/// in the file. `XcodeMappingReader` makes one from an `XcodeStoreDocument`;
/// `XcodeMappingDocument` turns it into a `MappingDocument` for the compiler
/// (`Specs/xcmappingmodel.md`).
public struct XcodeMapping: Sendable {
  /// A binary attribute: base64-decoded bytes and where they were.
  public struct Blob: Sendable {
    public var bytes: [UInt8]
    public var location: SourceLocation
  }

  public struct EntityMapping: Sendable {
    public var id: String
    public var name: Located<String>?
    public var source: Located<String>?
    public var destination: Located<String>?
    public var mappingTypeName: Located<String>?
    public var number: Int?
    public var policy: Located<String>?
    public var filter: XcodeStoreDocument.Attribute?
    /// `autogenerateexpression`: true (or absent) means Xcode's default source fetch.
    public var autogenerateExpression: Bool
    public var userInfo: Blob?
    public var attributes: [PropertyMapping]
    public var relationships: [PropertyMapping]
    public var location: SourceLocation
  }

  public struct PropertyMapping: Sendable {
    public var id: String
    public var name: Located<String>
    /// `valueexpressiondata`: the archived expression typed in Xcode's editor.
    public var valueExpression: Blob?
    /// Relationship mappings: `sourcekeypath` and `sourcemappingname`.
    public var sourceKeyPath: XcodeStoreDocument.Attribute?
    public var sourceMappingName: Located<String>?
    public var autogenerateExpression: Bool
    public var location: SourceLocation
  }

  public var path: String
  public var store: XcodeStoreDocument
  public var mappingModelID: String
  public var sourceModelPath: Located<String>?
  public var destinationModelPath: Located<String>?
  public var sourceModelData: Blob?
  public var destinationModelData: Blob?
  public var entityMappings: [EntityMapping]
  public var location: SourceLocation
}
