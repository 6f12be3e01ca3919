import Foundation
import MapRuntime

/// Which model bundles `mapc lint` checks against which lock files.
public enum LockedBundles {
  /// The lock files (`*.lock` holding a mapc model lock) in `folders`, at any depth, each with
  /// the bundle it names beside it; other `.lock` files (`Podfile.lock`) are not ours and left alone.
  public static func found(in folders: [String]) -> [(bundle: String, lock: String)] {
    var result: [(bundle: String, lock: String)] = []
    for folder in folders {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { continue }
      let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
      let walker = FileManager.default.enumerator(atPath: base)
      var here: [(String, String)] = []
      while let relative = walker?.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcmappingmodel") || name.hasPrefix(".") {
          walker?.skipDescendants()
          continue
        }
        guard name.hasSuffix(".lock") else { continue }
        let path = base + "/" + relative
        guard let lock = try? ModelLock.read(path) else { continue }
        let bundle = PathText.folder(of: path) + "/" + lock.model
        if FileManager.default.fileExists(atPath: bundle) { here.append((bundle, path)) }
      }
      result += here.sorted { $0.1 < $1.1 }.map { (bundle: $0.0, lock: $0.1) }
    }
    return result
  }

  /// The lock checks as lint findings, added to `report` and sorted with it.
  public static func add(_ pairs: [(bundle: String, lock: String)], to report: inout LintReport) {
    let lines = SourceLines()
    for (bundle, lock) in pairs {
      report.findings += ModelLock.check(bundle: bundle, lockPath: lock).map { d in
        LintFinding(diagnostic: d, sourceLine: d.location.flatMap { lines.line($0.line, of: $0.file) })
      }
    }
    report.findings = Linter.sorted(report.findings)
  }
}
