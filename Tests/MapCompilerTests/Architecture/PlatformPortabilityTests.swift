import Foundation
import MapTestSupport
import Testing

/// The package builds on macOS 13 as well as Linux (`platforms: [.macOS(.v13)]`), which this
/// project's machines cannot try: the code is kept portable by construction, and this suite
/// reads every Swift file for what would break the other platform.
///
/// - A C library module (Glibc, Musl, Darwin, …) is imported, or named as a qualifier
///   (`Glibc.write`), only inside `#if canImport(ThatModule)`.
/// - Nothing needs a newer macOS than 13 without asking `#available`: `Synchronization`
///   (`Atomic`, `Mutex`: macOS 15) is not imported; `String(validating:as:)` (macOS 15) is called
///   only where `#available(macOS 15` is checked.
@Suite struct PlatformPortabilityTests {
  static let platformModules = ["Glibc", "Musl", "Darwin", "Bionic", "Android", "WinSDK", "ucrt", "CRT", "WASILibc"]
  static let folders = ["Sources", "Tests", "Examples", "Fuzz/Sources", "Benchmarks"]
  static let thisFile = "PlatformPortabilityTests.swift"

  /// A finding: file, line number and what is wrong.
  struct Finding: CustomStringConvertible {
    let file: String
    let line: Int
    let message: String
    var description: String { "\(file):\(line): \(message)" }
  }

  /// The lines of `text` that use a platform module outside a `canImport` of it.
  static func unguardedUses(in text: String, file: String) -> [Finding] {
    var findings: [Finding] = []
    // The condition of the branch each open `#if` is in, innermost last.
    var branches: [String] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = raw.trimmingCharacters(in: .whitespaces)
      if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
      if line.hasPrefix("#if ") {
        branches.append(String(line.dropFirst(4)))
        continue
      }
      if line.hasPrefix("#elseif ") {
        if !branches.isEmpty { branches[branches.count - 1] = String(line.dropFirst(8)) }
        continue
      }
      if line.hasPrefix("#else") {
        // The branch taken when the earlier conditions are false guards no module.
        if !branches.isEmpty { branches[branches.count - 1] = "" }
        continue
      }
      if line.hasPrefix("#endif") {
        _ = branches.popLast()
        continue
      }
      for module in platformModules where line.contains(module) {
        let imported =
          line.range(of: "^(@\\w+\\s+)?import\\s+(\\w+\\s+)?\(module)\\b", options: .regularExpression) != nil
        let qualified = line.range(of: "(^|[^\\w.])\(module)\\.[a-z_]", options: .regularExpression) != nil
        guard imported || qualified else { continue }
        let guarded = branches.contains { condition in
          condition.range(of: "canImport\\(\\s*\(module)\\s*\\)", options: .regularExpression) != nil
            && condition.range(of: "!\\s*canImport\\(\\s*\(module)", options: .regularExpression) == nil
        }
        if !guarded {
          findings.append(
            Finding(
              file: file, line: index + 1,
              message: "\(imported ? "import of" : "call qualified by") \(module) outside #if canImport(\(module))"))
        }
      }
      if line.contains("Synchronization"),
        line.range(of: "^import\\s+Synchronization\\b", options: .regularExpression) != nil
      {
        findings.append(
          Finding(file: file, line: index + 1, message: "Synchronization needs macOS 15; the package supports macOS 13")
        )
      }
    }
    if text.contains("String(validating:") && !text.contains("#available(macOS 15") {
      findings.append(
        Finding(file: file, line: 0, message: "String(validating:as:) needs macOS 15 without an #available check"))
    }
    return findings
  }

  @Test func everyPlatformModuleIsBehindCanImport() throws {
    var findings: [Finding] = []
    var files = 0
    for folder in Self.folders {
      guard FileManager.default.fileExists(atPath: SharedPaths.packageRoot.appendingPathComponent(folder).path) else {
        continue
      }
      // This file holds the broken forms as test data.
      for (relative, text) in try SharedPaths.swiftFiles(under: folder) where !relative.hasSuffix("/\(Self.thisFile)") {
        files += 1
        findings += Self.unguardedUses(in: text, file: "\(folder)/\(relative)")
      }
    }
    #expect(files > 100)
    #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
  }

  /// The scanner itself, on code written to break each rule and on its guarded forms.
  @Test func theScannerFindsWhatItShould() {
    let bad = """
      import Glibc
      #if os(Linux)
        import Glibc
      #endif
      #if canImport(Glibc)
        import Glibc
      #else
        import Darwin
      #endif
      @preconcurrency import Darwin
      let n = Glibc.write(1, nil, 0)
      import Synchronization
      #if !canImport(Musl)
        import Musl
      #endif
      let s = String(validating: [], as: UTF8.self)
      """
    let lines = Self.unguardedUses(in: bad, file: "bad.swift").map(\.line)
    #expect(lines == [1, 3, 8, 10, 11, 12, 14, 0])

    let good = """
      #if canImport(Glibc)
        import Glibc
        let n = Glibc.write(1, nil, 0)
      #elseif canImport(Musl)
        import Musl
      #elseif canImport(Darwin)
        #if DEBUG
          import Darwin
        #endif
      #endif
      // import Glibc in a comment
      let x = myGlibc.write
      """
    #expect(Self.unguardedUses(in: good, file: "good.swift").isEmpty)
  }
}
