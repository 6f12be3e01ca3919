import Foundation
import Testing

/// What a test needs beyond the package and the README's "Needs" line, and the traits that skip
/// it with a message naming what to install. `.ci/run` installs all of it and fails when any test
/// skips, so a skip can only happen on a machine that lacks something.
public enum TestTools {
  /// The executable `name` on the PATH, if any.
  public static func onPath(_ name: String) -> URL? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// python3 on the PATH (the tests' independent oracles; the README's "Needs" line names it).
  public static let python3: URL? = onPath("python3")

  /// Whether python3 imports `module`.
  public static func pythonHas(_ module: String) -> Bool {
    guard let python3 else { return false }
    return runExecutable(python3, ["-c", "import \(module)"]).exitCode == 0
  }

  /// The message of a skipped test that needs `tool` from Debian's `package`.
  public static func missing(_ tool: String, package: String) -> String {
    "needs \(tool), which is not installed (Debian package \(package); .ci/run installs it)"
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips unless `../shared` is beside the package, saying so.
  public static var needsShared: Self {
    .enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage))
  }

  /// Skips unless `tool` is on the PATH, naming the Debian package that has it.
  public static func needsTool(_ tool: String, package: String) -> Self {
    .enabled(if: TestTools.onPath(tool) != nil, Comment(rawValue: TestTools.missing(tool, package: package)))
  }

  /// Skips unless python3 imports `module`, naming the Debian package that has it.
  public static func needsPythonModule(_ module: String, package: String) -> Self {
    .enabled(
      if: TestTools.pythonHas(module),
      Comment(rawValue: TestTools.missing("python3's module \(module)", package: package)))
  }
}
