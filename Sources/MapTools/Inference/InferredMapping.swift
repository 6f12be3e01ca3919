import MapCompiler
import MapRuntime
import MapSyntax

/// A mapping model inferred with Core Data's lightweight rules (`Specs/migrate.md` §2): the
/// document the ordinary compiler checks (so an inferred step runs as an ordinary plan), what
/// changed, and every change that cannot be inferred.
public struct InferredMapping: Sendable {
  /// The mapping, with `<sourceModel>`/`<destinationModel>` left for the caller to fill in.
  /// Nil when inference failed (`diagnostics` then holds at least one error).
  public var document: MappingDocument?
  /// `infer-*` errors (what cannot be inferred, at the model element at fault) and warnings.
  public var diagnostics: [Diagnostic]
  /// Entities only in the destination model (their instances start empty).
  public var addedEntities: [String]
  /// Source entities with no destination counterpart (their instances are dropped).
  public var removedEntities: [String]
  /// `Source.old → Destination.new` for every entity and property matched under another name.
  public var renames: [String]
  /// The source element each destination element was matched to (for reversing the step).
  public var matching = InferenceMatching()

  /// One line per change, for the comment `mapc infer` writes at the top of the file.
  public var summary: String {
    var parts: [String] = []
    if !renames.isEmpty { parts.append("renamed \(renames.joined(separator: ", "))") }
    if !addedEntities.isEmpty { parts.append("added entities \(addedEntities.joined(separator: ", "))") }
    if !removedEntities.isEmpty { parts.append("removed entities \(removedEntities.joined(separator: ", "))") }
    return parts.isEmpty ? "no renamed, added or removed entities" : parts.joined(separator: "; ")
  }
}
