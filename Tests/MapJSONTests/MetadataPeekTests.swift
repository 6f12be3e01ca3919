import Foundation
import MapJSON
import MapRuntime
import MapTestSupport
import Testing

/// `StoreMetadataPeek.read` reads only as much of a JSON store as holds its metadata: the same
/// answers (hand-written hashes) wherever the metadata sits and wherever a read stops, the same
/// errors at the same line and column as reading the whole file, and no more bytes than needed.
@Suite struct MetadataPeekTests {
  static let hashes = ["Note": "bm90ZQ==", "Tag": "dGFn"]
  static let metadata = #"{"entityVersionHashes": {"Note": "bm90ZQ==", "Tag": "dGFn"}}"#

  /// `n` objects of filler (about 60 bytes each).
  static func objects(_ n: Int) -> String {
    #"{"Note": ["#
      + (1...n).map { #"{"id": "Note/\#($0)", "title": "a note with some text é \#($0)"}"# }
      .joined(separator: ",\n") + "]}"
  }

  static func write(_ text: String) throws -> String {
    let dir = try FileManagerTemp.folder("peek")
    let path = dir.appendingPathComponent("store.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func metadataFirstInALargeStore() throws {
    let path = try Self.write(#"{"metadata": \#(Self.metadata), "objects": \#(Self.objects(20_000))}"#)
    defer { FileManagerTemp.remove((path as NSString).deletingLastPathComponent) }
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int > 1 << 20)
    #expect(try StoreMetadataPeek.read(path).entityVersionHashes == Self.hashes)
  }

  /// Metadata after a megabyte of objects, placed so that each read size the peek tries ends
  /// at another point of the text (inside a string, a number, a multi-byte character).
  @Test(arguments: [0, 1, 7, 33, 4097])
  func metadataAfterTheObjects(pad: Int) throws {
    let text =
      #"{"objects": \#(Self.objects(20_000)),\#(String(repeating: " ", count: pad)) "metadata": \#(Self.metadata)}"#
    let path = try Self.write(text)
    defer { FileManagerTemp.remove((path as NSString).deletingLastPathComponent) }
    #expect(try StoreMetadataPeek.read(path).entityVersionHashes == Self.hashes)
  }

  /// A store whose first read ends inside the metadata's own strings.
  @Test(arguments: [65_530, 65_536, 65_540])
  func firstReadEndsInsideTheMetadata(at offset: Int) throws {
    let head = #"{"metadata": {"pad": ""#
    let filler = String(repeating: "x", count: offset - head.utf8.count - 4)
    let text = head + filler + #"", "entityVersionHashes": {"Note": "bm90ZQ==", "Tag": "dGFn"}}, "objects": {}}"#
    let path = try Self.write(text)
    defer { FileManagerTemp.remove((path as NSString).deletingLastPathComponent) }
    #expect(try StoreMetadataPeek.read(path).entityVersionHashes == Self.hashes)
  }

  /// An error in the metadata of a large store is the error a whole read gives, at the same
  /// line and column (counted by hand: line 2, column 31).
  @Test func anErrorIsReportedWhereItIs() throws {
    let text =
      "{\"metadata\": {\"entityVersionHashes\":\n  {\"Note\": \"bm90ZQ==\", \"Tag\": 3}}, \"objects\": "
      + Self.objects(20_000) + "}"
    let path = try Self.write(text)
    defer { FileManagerTemp.remove((path as NSString).deletingLastPathComponent) }
    do {
      _ = try StoreMetadataPeek.read(path)
      Issue.record("no error")
    } catch {
      let e = try #require(error.errors.first)
      #expect(e.code == "store-metadata")
      #expect(e.location?.line == 2)
      #expect(e.location?.column == 31)
    }
  }

  /// A syntax error in a short store (read whole at once) is reported, not read again.
  @Test func aSyntaxErrorInASmallStore() throws {
    let path = try Self.write(#"{"metadata": {"entityVersionHashes": {"Note": "bm90ZQ==",}}}"#)
    defer { FileManagerTemp.remove((path as NSString).deletingLastPathComponent) }
    do {
      _ = try StoreMetadataPeek.read(path)
      Issue.record("no error")
    } catch {
      #expect(error.errors.first?.code == "json-trailing-comma")
    }
  }

  /// A syntax error far into a large store, after the metadata, is none of the peek's business.
  @Test func whatFollowsTheMetadataIsNotRead() throws {
    let text = #"{"metadata": \#(Self.metadata), "objects": \#(Self.objects(20_000)) ,,,"#
    let path = try Self.write(text)
    defer { FileManagerTemp.remove((path as NSString).deletingLastPathComponent) }
    #expect(try StoreMetadataPeek.read(path).entityVersionHashes == Self.hashes)
  }
}
