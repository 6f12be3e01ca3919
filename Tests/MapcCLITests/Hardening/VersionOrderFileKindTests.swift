import Foundation
import MapTestSupport
import Testing

/// A bundle's `.mapc-version-order` that is a FIFO, a device or a folder: a clear error naming the
/// file and what it is (exit 1), at once: never an `NSError` dump, never waiting for a writer.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct VersionOrderFileKindTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>
    </model>
    """

  @Test(arguments: ["fifo", "device", "folder"])
  func irregularOrderFileIsNamed(_ kind: String) throws {
    let dir = try FileManagerTemp.folder("order-kind")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = dir.appendingPathComponent("B.xcdatamodeld")
    for v in ["B1", "B2"] {
      let folder = bundle.appendingPathComponent("\(v).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(Self.model.utf8).write(to: folder.appendingPathComponent("contents"))
    }
    let order = bundle.appendingPathComponent(".mapc-version-order").path
    let what: String
    switch kind {
    case "fifo":
      #expect(mkfifo(order, 0o600) == 0)
      what = "is a FIFO (named pipe), not a regular file"
    case "device":
      try FileManager.default.createSymbolicLink(atPath: order, withDestinationPath: "/dev/null")
      what = "is a character device, not a regular file"
    default:
      try FileManager.default.createDirectory(atPath: order, withIntermediateDirectories: true)
      what = "is a folder, not a regular file"
    }
    let start = Date()
    let r = runMapc(["diff", bundle.path])
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(r.exitCode == 1)
    #expect(r.stderr.hasPrefix(order + ": error: cannot read the version order: .mapc-version-order " + what))
    #expect(r.stderr.contains("[model-version-order]"))
    #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("permission"))
  }
}
