/// Why an embedded model snapshot (`sourcemodeldata` / `destinationmodeldata` of an
/// `.xcmappingmodel`) could not be decoded.
///
/// The message names the archive object (its index in `$objects` and its class) and the field
/// at fault, for example `object 63 (XDUMLPropertyImp), XD_PPSK_isOptional of attribute
/// 'Post.color': expected a boolean, found a string`.
public struct ModelSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { "model snapshot: \(message)" }
}
