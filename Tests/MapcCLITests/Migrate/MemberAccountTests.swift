import Foundation
import MapTestSupport
import Testing

/// What a chunk counts for the members it reads whole with a row (issue 41, `Specs/limits.md`):
/// 64 bytes a member (`CoreDataReader.bytesPerMember`), and a row whose members take more than
/// a quarter of the limit is refused as a row too large is. At `--memory-limit 64K` a quarter is
/// 16,384 bytes: a folder of 256 items (256 × 64 = 16,384, not more) goes in chunks with the
/// bytes of the run in memory, and a folder of 257 (16,448) is refused, naming the folder's row,
/// with nothing written. The numbers are worked out by hand from the rule.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to edit the stores"))
struct MemberAccountTests {
  @Test(arguments: [256, 257]) func aRowsMembersFitAQuarterOfTheLimitOrTheRunIsRefused(items: Int) throws {
    let dir = try FileManagerTemp.folder("member-account")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(
      versions: [("V1", RelationshipChunksTests.version(1)), ("V2", RelationshipChunksTests.version(2))], named: "R",
      in: dir, current: "V2")
    let itemObjects = (1...items).map { n -> [String: Any] in
      ["id": "Item/\(n)", "title": "item \(n)", "n": n, "folder": "Folder/1"]
    }
    let folder: [String: Any] = ["id": "Folder/1", "name": "folder", "items": (1...items).map { "Item/\($0)" }]
    let store = try RelationshipChunksTests.imported(dir, bundle, ["Folder": [folder], "Item": itemObjects])
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let chunks = RelationshipChunksTests()
    let whole = dir.appendingPathComponent("whole.sqlite").path
    #expect(chunks.migrate(dir, store, whole, to: 2, ["--quiet"]).exitCode == 0)
    let chunked = dir.appendingPathComponent("chunks.sqlite").path
    let r = chunks.migrate(dir, store, chunked, to: 2, ["--memory-limit", "64K"])
    if items == 256 {
      #expect(r.exitCode == 0, "\(r.stderr)")
      #expect(r.stderr.contains(" chunks"), "\(r.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    } else {
      #expect(r.exitCode == 2)
      #expect(
        r.stderr.contains(
          "ZFOLDER row Z_PK=1: its relationship items holds 257 objects, which a chunk reads with it: more than a quarter of the --memory-limit (16384 bytes) allows one object [run-memory-limit]"
        ), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: chunked))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
