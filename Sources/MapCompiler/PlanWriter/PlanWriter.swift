import Foundation
import MapRuntime

/// Writes a `MigrationPlan` as a `.cdm` plan file (`Specs/plan-format.md`); `PlanReader` in
/// MapRuntime reads it back.
///
/// The output depends on the plan alone: strings are numbered in order of first use, arrays keep
/// their order, no dictionary is iterated and no time or environment is recorded, so the same
/// plan always gives the same bytes.
public enum PlanWriter {
  /// The complete file: header, then body.
  ///
  /// The writer encodes whatever it is given. `PlanReader` refuses expression or predicate trees
  /// nested deeper than `PlanFormat.maximumExpressionDepth` (see `PlanFormat.nestingDepth(of:)`),
  /// so the compiler must report such expressions as errors instead of writing them.
  ///
  /// With `relativeTo` (a folder), every file path in the plan (the mapping, the models, every
  /// source position) is written relative to that folder, so the bytes do not depend on the
  /// working directory or on how the paths were spelled (`mapc compile` passes the mapping's
  /// folder).
  public static func encode(_ plan: MigrationPlan, sourcePositions: Bool = true, relativeTo folder: String? = nil)
    -> [UInt8]
  {
    let body = encodeBody(plan, sourcePositions: sourcePositions, relativeTo: folder)
    var file = BinaryWriter(reservingCapacity: PlanFormat.headerSize + body.count)
    file.writeRaw(PlanFormat.magic)
    file.writeU16(PlanFormat.version)
    file.writeU16(0)
    file.writeU64(UInt64(body.count))
    file.writeRaw(PlanFormat.checksum(of: body))
    file.writeRaw(body)
    return file.bytes
  }

  /// Writes the plan to `path` (replacing any file there). Without `sourcePositions` the plan
  /// holds no file name, line, column or text span (`mapc compile --no-source-positions`,
  /// `Specs/plan-format.md` §4): two mappings that say the same thing in different files give
  /// the same bytes.
  public static func write(
    _ plan: MigrationPlan, to path: String, sourcePositions: Bool = true, relativeTo folder: String? = nil
  ) throws {
    try AtomicFileWriter.replaceContents(
      of: path, with: encode(plan, sourcePositions: sourcePositions, relativeTo: folder))
  }

  /// The body alone: the eight sections of format version 1, in order.
  static func encodeBody(_ plan: MigrationPlan, sourcePositions: Bool = true, relativeTo folder: String? = nil)
    -> [UInt8]
  {
    var encoder = PlanEncoder()
    encoder.sourcePositions = sourcePositions
    encoder.pathBase = folder.map(PathText.absolute)
    let planInfo = encoder.section { e in
      e.string(plan.name)
      e.string(sourcePositions ? e.path(plan.mappingPath) : "")
      e.userInfo(plan.userInfo)
    }
    let sourceModel = encoder.section { e in e.objectModel(plan.sourceModel) }
    let destinationModel = encoder.section { e in e.objectModel(plan.destinationModel) }
    let sourceHashes = encoder.section { e in
      e.array(plan.sourceEntityHashes) { e, h in e.entityHash(h) }
    }
    let destinationHashes = encoder.section { e in
      e.array(plan.destinationEntityHashes) { e, h in e.entityHash(h) }
    }
    let mappings = encoder.section { e in
      e.array(plan.entityMappings) { e, m in e.entityMapping(m) }
    }
    let predicates = encoder.section { e in
      e.array(plan.predicates) { e, p in
        e.string(p.text)
        e.predicate(p.predicate)
      }
    }
    let strings = encoder.stringTablePayload()

    var body = BinaryWriter()
    let sections: [(PlanFormat.Section, [UInt8])] = [
      (.strings, strings), (.planInfo, planInfo), (.sourceModel, sourceModel),
      (.destinationModel, destinationModel), (.sourceHashes, sourceHashes),
      (.destinationHashes, destinationHashes), (.entityMappings, mappings), (.predicates, predicates),
    ]
    for (tag, payload) in sections {
      body.writeU8(tag.rawValue)
      body.writeBytes(payload)
    }
    return body.bytes
  }
}

/// Encodes values into the current section, numbering strings in a table shared by all
/// sections. One function per type, in `PlanWriter+Model.swift`, `PlanWriter+Mapping.swift` and
/// `PlanWriter+Expression.swift`; `PlanDecoder` in MapRuntime mirrors each of them.
struct PlanEncoder {
  var out = BinaryWriter()
  /// False: locations are written as absent (or empty), spans as synthesized, paths left out.
  var sourcePositions = true
  /// When set (absolute, standardised), paths are written relative to this folder.
  var pathBase: String?
  /// Paths already made relative, by path as given.
  private var pathCache: [String: String] = [:]

  /// A file path as the plan records it: relative to `pathBase` when there is one.
  mutating func path(_ p: String) -> String {
    guard let base = pathBase, !p.isEmpty else { return p }
    if let known = pathCache[p] { return known }
    let relative = PathText.relative(PathText.absolute(p), from: base)
    pathCache[p] = relative
    return relative
  }

  /// Strings by UTF-8 bytes (see `PlanStringTable`).
  private var stringTable = PlanStringTable()

  /// Runs `body` on a fresh buffer and returns what it wrote.
  mutating func section(_ body: (inout PlanEncoder) -> Void) -> [UInt8] {
    out = BinaryWriter()
    body(&self)
    return out.bytes
  }

  /// The string table section's payload: every string in order of first use.
  func stringTablePayload() -> [UInt8] {
    var w = BinaryWriter()
    w.writeCount(stringTable.strings.count)
    for s in stringTable.strings { w.writeBytes(s) }
    return w.bytes
  }

  mutating func string(_ s: String) {
    out.writeCount(stringTable.number(of: s))
  }

  mutating func optional<T>(_ value: T?, _ body: (inout PlanEncoder, T) -> Void) {
    if let value {
      out.writeU8(1)
      body(&self, value)
    } else {
      out.writeU8(0)
    }
  }

  mutating func optionalString(_ s: String?) { optional(s) { e, s in e.string(s) } }

  mutating func array<T>(_ values: [T], _ body: (inout PlanEncoder, T) -> Void) {
    out.writeCount(values.count)
    for v in values { body(&self, v) }
  }

  mutating func stringArray(_ values: [String]) { array(values) { e, s in e.string(s) } }

  mutating func bool(_ b: Bool) { out.writeBool(b) }
  mutating func int(_ i: Int) { out.writeInt(i) }
}
