import Foundation
import MapModelReader
import MapRuntime
import MapSyntax

/// One version of a `.xcdatamodeld` bundle, loaded and hashed.
public struct ModelVersion: Sendable {
  public var name: String
  public var model: ObjectModel
  public var hashes: [EntityHash]
  /// Entity name → base64 version hash, as a store's `entityVersionHashes` records it.
  public var base64Hashes: [String: String]

  public init(name: String, model: ObjectModel) {
    self.name = name
    self.model = model
    self.hashes = VersionHasher.entityHashes(of: model)
    self.base64Hashes = Dictionary(
      hashes.map { ($0.entity, Data($0.hash).base64EncodedString()) }, uniquingKeysWith: { a, _ in a })
  }
}

/// Where the chain order of a bundle's versions comes from.
public enum VersionOrderSource: Sendable, Equatable {
  /// Their names (`VersionOrder.sorted`).
  case names
  /// The bundle's `.mapc-version-order` file (its path).
  case file(String)
  /// The `--version-order` option.
  case option
}

/// Every version of a model bundle in chain order (`Specs/migrate.md` §1): the order the bundle
/// declares (`--version-order`, else a `.mapc-version-order` file in the bundle), else the order
/// of their names (`VersionOrder`): the version named like the bundle, or without a number, first,
/// then by the numbers in their names (`Model`, `Model 2`, …, `Model 13`; `v1.2.0`, `v1.10`).
public struct ModelVersions: Sendable {
  public var bundlePath: String
  public var versions: [ModelVersion]
  /// Index of the bundle's current version (`.xccurrentversion`).
  public var current: Int
  /// Where the order of `versions` comes from.
  public var orderSource: VersionOrderSource = .names
  /// Pairs of versions whose names do not tell their order (ordered by their full names).
  public var undecided: [(String, String)] = []

  /// The name of the file in a bundle that declares its versions' order, one name a line.
  public static let orderFileName = ".mapc-version-order"

  /// What `path` is (after symbolic links) when it is not a regular file: `a FIFO`, `a folder`,
  /// …; nil for a regular file or when it cannot be examined (reading it then says why).
  static func irregularKind(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "not a file"
    }
  }

  public static func load(bundle: String, order declared: [String]? = nil) throws(DiagnosticsError)
    -> ModelVersions
  {
    var found = ((try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? [])
      .filter { $0.hasSuffix(".xcdatamodel") }
      .map { String($0.dropLast(".xcdatamodel".count)) }
    guard bundle.hasSuffix(".xcdatamodeld") || bundle.hasSuffix(".xcdatamodeld/"), !found.isEmpty else {
      throw DiagnosticsError([
        .error(
          "model-path", "not a model bundle: --model takes a .xcdatamodeld folder with at least one version", at: nil,
          file: bundle)
      ])
    }
    found.sort()
    let bundleName = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
    var source = VersionOrderSource.names
    var undecided: [(String, String)] = []
    let names: [String]
    let folder = bundle.hasSuffix("/") ? String(bundle.dropLast()) : bundle
    let orderFile = folder + "/" + orderFileName
    if let declared {
      source = .option
      names = try checkDeclared(declared, found: found, bundle: bundle, from: "--version-order")
    } else if FileManager.default.fileExists(atPath: orderFile) {
      source = .file(orderFile)
      let text: String
      do {
        // Not read unless a regular file: a FIFO would block until a writer came.
        if let kind = Self.irregularKind(orderFile) {
          throw DiagnosticsError([
            .error(
              "model-version-order",
              "cannot read the version order: \(orderFileName) is \(kind), not a regular file (it lists the versions, one a line)",
              at: nil, file: orderFile)
          ])
        }
        text = try String(contentsOfFile: orderFile, encoding: .utf8)
      } catch let error as DiagnosticsError {
        throw error
      } catch {
        throw DiagnosticsError([
          .error(
            "model-version-order", "cannot read the version order: \(SystemErrorText.describe(error))", at: nil,
            file: orderFile)
        ])
      }
      let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
      names = try checkDeclared(lines, found: found, bundle: orderFile, from: orderFileName)
    } else {
      (names, undecided) = VersionOrder.sorted(found, bundleName: bundleName)
    }
    // Each version read and hashed on its own, on every core; kept in chain order.
    let loaded = Cores.map(names.count) { i in
      Result { () throws(DiagnosticsError) in
        ModelVersion(name: names[i], model: try ModelLoader.load(path: bundle, version: names[i]).model)
      }
    }
    var versions: [ModelVersion] = []
    var errors: [(version: String, diagnostics: [Diagnostic])] = []
    for (name, result) in zip(names, loaded) {
      switch result {
      case .success(let version): versions.append(version)
      case .failure(let error): errors.append((name, error.diagnostics))
      }
    }
    if !errors.isEmpty { throw DiagnosticsError(grouped(errors)) }
    // Without a readable .xccurrentversion naming a version, the last version is the current
    // one (a real bundle's may lack the key). One that names a version must name one of the
    // bundle's, as for `mapc hash` and Xcode: a migration never goes to another version than
    // the one the app declares without saying so.
    let currentName = ModelLoader.namedCurrentVersion(in: bundle)
    if let currentName, !names.contains(currentName) {
      throw DiagnosticsError([
        .error(
          "model-current-version",
          "the current version '\(currentName)' (.xccurrentversion) is not in the bundle (versions: \(names.map { "'\($0)'" }.joined(separator: ", ")))",
          at: nil, file: folder + "/.xccurrentversion")
      ])
    }
    let current = currentName.flatMap { names.firstIndex(of: $0) } ?? names.count - 1
    return ModelVersions(
      bundlePath: bundle, versions: versions, current: current, orderSource: source, undecided: undecided)
  }

  /// A declared order: every version of the bundle once (names with or without `.xcdatamodel`).
  private static func checkDeclared(_ declared: [String], found: [String], bundle: String, from: String)
    throws(DiagnosticsError) -> [String]
  {
    let names = declared.map { $0.hasSuffix(".xcdatamodel") ? String($0.dropLast(".xcdatamodel".count)) : $0 }
    let quoted = { (list: [String]) in list.map { "'\($0)'" }.joined(separator: ", ") }
    var problems: [String] = []
    let unknown = names.filter { !found.contains($0) }
    if !unknown.isEmpty { problems.append("it names \(quoted(unknown)), not a version of the bundle") }
    var seen: Set<String> = []
    let repeated = names.filter { !seen.insert($0).inserted }
    if !repeated.isEmpty { problems.append("it names \(quoted(repeated)) twice") }
    let missing = found.filter { !names.contains($0) }
    if !missing.isEmpty { problems.append("it leaves out \(quoted(missing))") }
    guard problems.isEmpty else {
      throw DiagnosticsError([
        .error(
          "model-version-order",
          "the version order of \(from) must list every version of the bundle once (\(quoted(found))): \(problems.joined(separator: "; "))",
          at: nil, file: bundle)
      ])
    }
    return names
  }

  /// Which order was assumed and how to declare another, for every message that depends on the
  /// order of the versions.
  public var orderNote: String {
    let list = names.map { "'\($0)'" }.joined(separator: ", ")
    let how =
      "to declare another, list the versions one a line in \(Self.orderFileName) in the bundle (or give mapc migrate --version-order A,B,C)"
    switch orderSource {
    case .option:
      return "versions in the order given by --version-order: \(list)"
    case .file(let path):
      return "versions in the order declared in \(path): \(list)"
    case .names:
      let guessed = undecided.map { "'\($0.0)' before '\($0.1)'" }.joined(separator: ", ")
      let undecidedText = undecided.isEmpty ? "" : " (names do not tell \(guessed): ordered by full name)"
      return "versions in the order of their names: \(list)\(undecidedText); \(how)"
    }
  }

  /// One cause, one message: the findings of a bundle's versions with each repeated finding
  /// (same severity, id and message: the same problem of the same property name, in other
  /// entities or versions) reported once, at its first place, with how often and in which
  /// versions it occurs (`Specs/model-input.md` §4).
  static func grouped(_ found: [(version: String, diagnostics: [Diagnostic])]) -> [Diagnostic] {
    struct Key: Hashable {
      var severity: Diagnostic.Severity
      var id: String
      var message: String
    }
    var order: [Key] = []
    var first: [Key: Diagnostic] = [:]
    var count: [Key: Int] = [:]
    var versions: [Key: [String]] = [:]
    for (version, diagnostics) in found {
      for d in diagnostics {
        let key = Key(severity: d.severity, id: d.id, message: d.message)
        if first[key] == nil {
          order.append(key)
          first[key] = d
        }
        count[key, default: 0] += 1
        if versions[key]?.last != version { versions[key, default: []].append(version) }
      }
    }
    return order.map { key in
      var d = first[key]!
      let (n, names) = (count[key]!, versions[key]!)
      guard n > 1 else { return d }
      let quoted = names.map { "'\($0)'" }
      let shown = quoted.count <= 4 ? quoted : quoted.prefix(3) + ["…", quoted.last!]
      let listed = shown.joined(separator: ", ")
      if names.count == 1 {
        d.message += " (\(n) times)"
      } else if n == names.count {
        d.message += " (in \(names.count) versions: \(listed))"
      } else {
        d.message += " (\(n) times in \(names.count) versions: \(listed))"
      }
      return d
    }
  }

  public func index(named name: String) -> Int? {
    let wanted = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    return versions.firstIndex { $0.name == wanted }
  }

  public var names: [String] { versions.map(\.name) }
}

/// The order of version names, as Xcode users name versions: the version named like the bundle,
/// or without a number, first; then by the numbers in the names, compared as numbers one after
/// the other (`Model 2` < `Model 13`, `v1.2.0` < `v1.10`, `Model_2`, `V3`); names the numbers do
/// not tell apart by their chunks (`VersionOrder.precedes`).
public enum VersionOrder {
  /// The sort key: 0 for the version named like the bundle, 1 for another without a number,
  /// 2 for the numbered ones; then the numbers of the name.
  static func key(_ name: String, bundleName: String?) -> (rank: Int, numbers: [Int]) {
    let numbers = chunks(name).compactMap { chunk -> Int? in
      if case .number(let n) = chunk { return n }
      return nil
    }
    if let bundleName, name == bundleName { return (0, []) }
    return numbers.isEmpty ? (1, []) : (2, numbers)
  }

  /// `names` in chain order, and the neighbours whose names do not tell their order.
  public static func sorted(_ names: [String], bundleName: String?) -> (
    names: [String], undecided: [(String, String)]
  ) {
    let keyed = names.map { (name: $0, key: key($0, bundleName: bundleName)) }
    let sorted = keyed.sorted { a, b in
      if a.key.rank != b.key.rank { return a.key.rank < b.key.rank }
      if a.key.numbers != b.key.numbers { return a.key.numbers.lexicographicallyPrecedes(b.key.numbers) }
      return precedes(a.name, b.name)
    }
    var undecided: [(String, String)] = []
    for (a, b) in zip(sorted, sorted.dropFirst()) where a.key.rank != 0 && a.key == b.key {
      undecided.append((a.name, b.name))
    }
    return (sorted.map(\.name), undecided)
  }

  enum Chunk: Comparable {
    case number(Int)
    case text(String)
    static func < (a: Chunk, b: Chunk) -> Bool {
      switch (a, b) {
      case (.number(let x), .number(let y)): x < y
      case (.text(let x), .text(let y)): x < y
      case (.number, .text): true
      case (.text, .number): false
      }
    }
  }

  static func chunks(_ name: String) -> [Chunk] {
    var result: [Chunk] = []
    var digits = ""
    var text = ""
    func flush() {
      if !digits.isEmpty { result.append(.number(Int(digits.prefix(18)) ?? 0)) }
      if !text.isEmpty { result.append(.text(text)) }
      digits = ""
      text = ""
    }
    for ch in name where !ch.isWhitespace {
      if ch.isASCII && ch.isNumber {
        if !text.isEmpty { flush() }
        digits.append(ch)
      } else {
        if !digits.isEmpty { flush() }
        text.append(ch)
      }
    }
    flush()
    return result
  }

  public static func precedes(_ a: String, _ b: String) -> Bool {
    let (x, y) = (chunks(a), chunks(b))
    if x != y { return x.lexicographicallyPrecedes(y) }
    return a < b
  }
}
