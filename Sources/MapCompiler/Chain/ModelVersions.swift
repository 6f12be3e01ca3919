import Foundation
import MapRuntime

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

/// Every version of a model bundle in chain order (`Specs/migrate.md` §1): natural order of
/// the version names, white space ignored and runs of digits compared as numbers, so `Model`,
/// `Model 2`, …, `Model 10`.
public struct ModelVersions: Sendable {
  public var bundlePath: String
  public var versions: [ModelVersion]
  /// Index of the bundle's current version (`.xccurrentversion`).
  public var current: Int

  public static func load(bundle: String) throws(DiagnosticsError) -> ModelVersions {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? [])
      .filter { $0.hasSuffix(".xcdatamodel") }
      .map { String($0.dropLast(".xcdatamodel".count)) }
      .sorted(by: VersionOrder.precedes)
    guard bundle.hasSuffix(".xcdatamodeld") || bundle.hasSuffix(".xcdatamodeld/"), !names.isEmpty else {
      throw DiagnosticsError([
        .error(
          "model-path", "not a model bundle: --model takes a .xcdatamodeld folder with at least one version", at: nil,
          file: bundle)
      ])
    }
    var versions: [ModelVersion] = []
    var errors: [(version: String, diagnostics: [Diagnostic])] = []
    for name in names {
      do {
        versions.append(ModelVersion(name: name, model: try ModelLoader.load(path: bundle, version: name).model))
      } catch {
        errors.append((name, error.diagnostics))
      }
    }
    if !errors.isEmpty { throw DiagnosticsError(grouped(errors)) }
    // Without a readable .xccurrentversion, the last version is the current one.
    let currentName = (try? ModelLoader.resolve(path: bundle))?.versionName
    let current = currentName.flatMap { names.firstIndex(of: $0) } ?? names.count - 1
    return ModelVersions(bundlePath: bundle, versions: versions, current: current)
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

/// The order of version names.
public enum VersionOrder {
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
