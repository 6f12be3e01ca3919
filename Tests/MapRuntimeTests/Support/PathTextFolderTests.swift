import MapRuntime
import Testing

/// `PathText.folder(of:)` gives what `NSString.deletingLastPathComponent` documents (the table is
/// Apple's documented examples and the one-character paths Foundation traps on, worked by hand).
@Suite struct PathTextFolderTests {
  @Test(arguments: [
    ("/tmp/scratch.tiff", "/tmp"), ("/tmp/lock/", "/tmp"), ("/tmp/", "/"), ("/tmp", "/"), ("/", "/"),
    ("scratch.tiff", ""), ("o", ""), ("x/", ""), ("a/b", "a"), ("a//b", "a"), ("a/b/", "a"), ("", ""),
  ])
  func folder(_ path: String, _ expected: String) {
    #expect(PathText.folder(of: path) == expected, "\(path)")
  }
}
