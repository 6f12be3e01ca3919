import Foundation
import MapTools
import MapRuntime
import MapTestSupport
import MapcKit
import Testing

/// `ModelLocker` used from Swift, without the CLI, on `Mappings/shop`'s two versions. Oracles:
/// the version names and count are the bundle's folders, counted by hand; the lock file is read
/// with python3's json; an edited shipped version is refused and the file's bytes stay as they
/// were (compared with what was read before).
@Suite struct ModelLockerTests {
  static let shop = SharedPaths.packageRoot.appendingPathComponent("Mappings/shop/Shop.xcdatamodeld").path

  static func versionNames(ofLock path: String) throws -> String {
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import json,sys; print(','.join(v['name'] for v in json.load(open(sys.argv[1]))['versions']))", path,
      ])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func locksEveryVersionAndRefusesAnEditedOne() throws {
    let folder = try TemporaryFolder()
    let bundle = "\(folder.path)/Shop.xcdatamodeld"
    try FileManager.default.copyItem(atPath: Self.shop, toPath: bundle)
    let lockFile = "\(folder.path)/Shop.lock"
    let options = ModelLocker.Options(
      versions: try ModelVersions.load(bundle: bundle), bundle: bundle, output: lockFile)
    let report = try ModelLocker().lock(options)
    #expect(report.lockedVersions == 2)
    #expect(report.bundleName == "Shop.xcdatamodeld")
    #expect(try Self.versionNames(ofLock: lockFile) == "Shop,Shop 2")

    // The first version, shipped and locked, is edited: an attribute changes its type.
    let contents = "\(bundle)/Shop.xcdatamodel/contents"
    let text = try String(contentsOfFile: contents, encoding: .utf8)
    let edited = text.replacingOccurrences(
      of: #"<attribute name="code" attributeType="String"/>"#,
      with: #"<attribute name="code" attributeType="Integer 64"/>"#)
    #expect(edited != text)
    try edited.write(toFile: contents, atomically: false, encoding: .utf8)
    let before = try Data(contentsOf: URL(fileURLWithPath: lockFile))
    let again = ModelLocker.Options(versions: try ModelVersions.load(bundle: bundle), bundle: bundle, output: lockFile)
    #expect {
      try ModelLocker().lock(again)
    } throws: { error in
      guard let error = error as? MapcError, case .input(_, let notes) = error else { return false }
      return error.status == .inputErrors && notes == ["nothing was written; \(lockFile) is unchanged"]
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: lockFile)) == before)
  }

  @Test func aVersionTheBundleLacksIsNamedWithTheOnesItHas() throws {
    let versions = try ModelVersions.load(bundle: Self.shop)
    #expect(try ModelLocker.versions(versions, through: "Shop").map(\.name) == ["Shop"])
    #expect {
      try ModelLocker.versions(versions, through: "Shop 3")
    } throws: { error in
      (error as? MapcError)?.ids == ["model-version-not-found"]
        && "\(error)".contains("versions: 'Shop', 'Shop 2'")
    }
  }
}
