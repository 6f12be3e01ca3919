import Foundation

/// The fixed-size header at the start of every plan file (`Specs/plan-format.md` §3).
public struct PlanHeader: Sendable, Hashable {
  public var formatVersion: UInt16
  public var flags: UInt16
  public var bodyLength: UInt64
  /// SHA-256 of the body (32 bytes).
  public var checksum: [UInt8]

  public init(formatVersion: UInt16, flags: UInt16, bodyLength: UInt64, checksum: [UInt8]) {
    self.formatVersion = formatVersion
    self.flags = flags
    self.bodyLength = bodyLength
    self.checksum = checksum
  }
}

/// Reads `.cdm` plans written by `PlanWriter` (MapCompiler). Never traps on damaged or hostile
/// input: every problem is a `PlanFormatError` with a stable code.
public enum PlanReader {
  /// Reads and decodes the plan file at `path`; errors carry `path`.
  ///
  /// `mapc compile` records file paths relative to the plan's folder; they are resolved against
  /// the folder `path` names, so diagnostics name the mapping as seen from here.
  public static func read(contentsOf path: String) throws(PlanFormatError) -> MigrationPlan {
    try decode(try readBytes(path), path: path, pathBase: folder(of: path))
  }

  /// The folder part of a path (`.` for a bare file name).
  public static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Decodes a whole plan file's bytes. `path`, when given, is attached to errors; relative file
  /// paths in the plan are resolved against `pathBase` when given.
  public static func decode(_ bytes: [UInt8], path: String? = nil, pathBase: String? = nil) throws(PlanFormatError)
    -> MigrationPlan
  {
    _ = try verify(bytes, path: path)
    var decoder = PlanDecoder(BinaryReader(bytes, offset: PlanFormat.headerSize))
    decoder.pathBase = pathBase
    do {
      return try decoder.plan()
    } catch {
      throw PlanFormatError(
        code: .malformed, message: "plan is malformed at byte \(error.offset): \(error.message)",
        offset: error.offset, path: path)
    }
  }

  /// Checks the envelope (magic, version, flags, length, checksum) and returns the header,
  /// without decoding the body.
  public static func verify(_ bytes: [UInt8], path: String? = nil) throws(PlanFormatError)
    -> PlanHeader
  {
    func fail(_ code: PlanFormatError.Code, _ message: String, _ offset: Int? = nil) -> PlanFormatError {
      PlanFormatError(code: code, message: message, offset: offset, path: path)
    }
    let magic = PlanFormat.magic
    let head = min(bytes.count, magic.count)
    if let bad = (0..<head).first(where: { bytes[$0] != magic[$0] }) {
      throw fail(.badMagic, "not a mapc plan (bad magic bytes)", bad)
    }
    guard bytes.count >= PlanFormat.headerSize else {
      // A version this mapc cannot read is the better message, even in a short file.
      if bytes.count >= 10, littleEndian(bytes, at: 8, width: 2) != UInt64(PlanFormat.version) {
        throw unsupported(UInt16(littleEndian(bytes, at: 8, width: 2)), path: path)
      }
      throw fail(
        .truncated,
        "plan is truncated: expected a \(PlanFormat.headerSize)-byte header, found \(bytes.count) byte\(bytes.count == 1 ? "" : "s")",
        bytes.count)
    }
    let version = UInt16(littleEndian(bytes, at: 8, width: 2))
    guard version == PlanFormat.version else { throw unsupported(version, path: path) }
    let flags = UInt16(littleEndian(bytes, at: 10, width: 2))
    let unknown = flags & ~PlanFormat.knownFlags
    guard unknown == 0 else {
      throw fail(
        .unsupportedVersion,
        "plan uses format flags \(hex16(unknown)) that this mapc does not support; recompile the mapping with this mapc",
        10)
    }
    let bodyLength = littleEndian(bytes, at: 12, width: 8)
    let checksum = Array(bytes[20..<52])
    let available = UInt64(bytes.count - PlanFormat.headerSize)
    if bodyLength > available {
      throw fail(
        .truncated, "plan is truncated: expected \(bodyLength) bytes of body, found \(available)",
        bytes.count)
    }
    if bodyLength < available {
      let extra = available - bodyLength
      throw fail(
        .malformed,
        "plan is damaged: \(extra) unexpected byte\(extra == 1 ? "" : "s") after the \(bodyLength)-byte body",
        PlanFormat.headerSize + Int(bodyLength))
    }
    let digest = PlanFormat.checksum(of: bytes[PlanFormat.headerSize...])
    guard digest == checksum else {
      throw fail(.checksumMismatch, "plan is damaged: checksum mismatch", 20)
    }
    return PlanHeader(formatVersion: version, flags: flags, bodyLength: bodyLength, checksum: checksum)
  }

  /// The `width`-byte little-endian number at `offset`; the caller has checked the bounds.
  private static func littleEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in 0..<width { value |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
    return value
  }

  private static func unsupported(_ version: UInt16, path: String?) -> PlanFormatError {
    let supported = PlanFormat.version
    let message =
      version > supported
      ? "plan format version \(version) is newer than this mapc supports (\(supported)); recompile the mapping with this mapc"
      : "plan format version \(version) is not supported (this mapc reads version \(supported)); recompile the mapping with this mapc"
    return PlanFormatError(code: .unsupportedVersion, message: message, offset: 8, path: path)
  }

  private static func hex16(_ v: UInt16) -> String {
    let digits = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The bytes of the file at `path`, or a `plan-unreadable` error.
  public static func readBytes(_ path: String) throws(PlanFormatError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw PlanFormatError(code: .unreadable, message: "cannot read plan: no such file", path: path)
    }
    guard !isDirectory.boolValue else {
      throw PlanFormatError(code: .unreadable, message: "cannot read plan: it is a directory", path: path)
    }
    do {
      let input = try InputBytes(contentsOf: path, regularFileOnly: true, maxBytes: Limits.planFileBytes)
      return input.withUnsafeBytes { [UInt8]($0) }
    } catch {
      throw PlanFormatError(
        code: .unreadable, message: "cannot read plan: \(error.reason) [\(error.code.rawValue)]", path: path)
    }
  }
}

/// Decodes a plan body: sections, then one function per type. Mirrors `PlanWriter` in
/// MapCompiler field by field.
struct PlanDecoder {
  var r: BinaryReader
  var strings: [String] = []
  /// Current nesting of expression and predicate nodes.
  var depth = 0
  /// The folder relative file paths are resolved against (nil: kept as written).
  var pathBase: String?

  init(_ reader: BinaryReader) { self.r = reader }

  /// A file path of the plan, resolved against `pathBase` (lexically: joined, `.` dropped, `..`
  /// folded) and shown relative to the working directory when `pathBase` is relative.
  func path(_ p: String) -> String {
    guard let base = pathBase, !p.isEmpty, !p.hasPrefix("/") else { return p }
    let cwd = FileManager.default.currentDirectoryPath
    let full = PathText.normalized((base.hasPrefix("/") ? base : cwd + "/" + base) + "/" + p)
    return base.hasPrefix("/") ? full : PathText.relative(full, from: PathText.normalized(cwd))
  }

  mutating func plan() throws(BinaryReadError) -> MigrationPlan {
    try section(.strings) { (d) throws(BinaryReadError) in try d.stringTable() }
    var name = "", mappingPath = "", userInfo = UserInfo()
    try section(.planInfo) { (d) throws(BinaryReadError) in
      name = try d.string("plan name")
      mappingPath = d.path(try d.string("mapping path"))
      userInfo = try d.userInfo()
    }
    var sourceModel = ObjectModel(entities: []), destinationModel = ObjectModel(entities: [])
    try section(.sourceModel) { (d) throws(BinaryReadError) in sourceModel = try d.objectModel() }
    try section(.destinationModel) { (d) throws(BinaryReadError) in
      destinationModel = try d.objectModel()
    }
    var sourceHashes: [EntityHash] = [], destinationHashes: [EntityHash] = []
    try section(.sourceHashes) { (d) throws(BinaryReadError) in
      sourceHashes = try d.array("entity hashes") { (d) throws(BinaryReadError) in try d.entityHash() }
    }
    try section(.destinationHashes) { (d) throws(BinaryReadError) in
      destinationHashes = try d.array("entity hashes") { (d) throws(BinaryReadError) in try d.entityHash() }
    }
    var mappings: [EntityMapping] = []
    try section(.entityMappings) { (d) throws(BinaryReadError) in
      mappings = try d.array("entity mappings") { (d) throws(BinaryReadError) in try d.entityMapping() }
    }
    var predicates: [PrecompiledPredicate] = []
    try section(.predicates) { (d) throws(BinaryReadError) in
      predicates = try d.array("precompiled predicates") { (d) throws(BinaryReadError) in
        PrecompiledPredicate(text: try d.string("predicate text"), predicate: try d.predicate())
      }
    }
    try r.expectEnd("the body")
    return MigrationPlan(
      name: name, mappingPath: mappingPath, userInfo: userInfo, sourceModel: sourceModel,
      destinationModel: destinationModel, sourceEntityHashes: sourceHashes,
      destinationEntityHashes: destinationHashes, entityMappings: mappings, predicates: predicates)
  }

  /// Reads the section header, requires `expected`, runs `body` on the section's bytes alone and
  /// requires it to read all of them.
  mutating func section(
    _ expected: PlanFormat.Section, _ body: (inout PlanDecoder) throws(BinaryReadError) -> Void
  ) throws(BinaryReadError) {
    let start = r.offset
    let tag = try r.readU8("section tag")
    guard tag == expected.rawValue else {
      throw r.error("expected the \(expected.title) (tag \(expected.rawValue)), found tag \(tag)", at: start)
    }
    let length = try r.readCount("length of the \(expected.title)")
    let sub = try r.subReader(length: length, expected.title)
    let outer = r
    r = sub
    try body(&self)
    try r.expectEnd("the \(expected.title)")
    r = outer
  }

  mutating func stringTable() throws(BinaryReadError) {
    let n = try r.readCount("number of strings")
    var table: [String] = []
    for _ in 0..<n { table.append(try r.readString("string table entry")) }
    strings = table
  }

  // MARK: Generic pieces

  mutating func string(_ what: String) throws(BinaryReadError) -> String {
    let start = r.offset
    let index = try r.readVarUInt("string index of \(what)")
    guard index < UInt64(strings.count) else {
      throw r.error(
        "string index \(index) of \(what) is outside the string table (\(strings.count) strings)", at: start)
    }
    return strings[Int(index)]
  }

  mutating func optional<T>(
    _ what: String, _ value: (inout PlanDecoder) throws(BinaryReadError) -> T
  ) throws(BinaryReadError) -> T? {
    let start = r.offset
    switch try r.readU8("presence byte of \(what)") {
    case 0: return nil
    case 1: return try value(&self)
    case let b: throw r.error("presence byte of \(what) must be 0 or 1, found \(b)", at: start)
    }
  }

  mutating func optionalString(_ what: String) throws(BinaryReadError) -> String? {
    try optional(what) { (d) throws(BinaryReadError) in try d.string(what) }
  }

  mutating func array<T>(
    _ what: String, _ element: (inout PlanDecoder) throws(BinaryReadError) -> T
  ) throws(BinaryReadError) -> [T] {
    let n = try r.readCount("number of \(what)")
    var result: [T] = []
    for _ in 0..<n { result.append(try element(&self)) }
    return result
  }

  mutating func stringArray(_ what: String) throws(BinaryReadError) -> [String] {
    try array(what) { (d) throws(BinaryReadError) in try d.string(what) }
  }

  mutating func bool(_ what: String) throws(BinaryReadError) -> Bool { try r.readBool(what) }
  mutating func int(_ what: String) throws(BinaryReadError) -> Int { try r.readInt(what) }

  /// A one-byte tag turned into a value by `make`; unknown tags are refused.
  mutating func tag<T>(_ what: String, _ make: (UInt8) -> T?) throws(BinaryReadError) -> T {
    let start = r.offset
    let raw = try r.readU8("\(what) tag")
    guard let value = make(raw) else { throw r.error("unknown \(what) tag \(raw)", at: start) }
    return value
  }
}
