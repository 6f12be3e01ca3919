import Foundation
import MapCompiler

/// The mapping files named on the command line: files (and `.xcmappingmodel` folders) as given,
/// and in folders every `*.xml` (recursively, hidden folders skipped) whose root element is
/// `<mappingModel>` and every Xcode mapping model (`X.xcmappingmodel`, linted as its
/// `xcmapping.xml`). With `everyXML` (`mapc migrate --mappings`), every `*.xml` of a folder is
/// taken whatever its root, so that a file that is not a readable mapping is an error rather
/// than skipped.
public enum MappingFileFinder {
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  public static func find(_ paths: [String], everyXML: Bool = false) throws(Failure) -> [String] {
    let fm = FileManager.default
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Failure(description: "\(path): no such file or folder")
      }
      guard isDirectory.boolValue, !XcodeMappingReader.isXcodeMapping(path) else {
        result.append(XcodeMappingReader.documentPath(path))
        continue
      }
      var found: [String] = []
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      guard let enumerator = fm.enumerator(atPath: path) else { continue }
      while let relative = enumerator.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") {
          enumerator.skipDescendants()
          continue
        }
        if name.hasSuffix(".xcmappingmodel") {
          enumerator.skipDescendants()
          let document = base + "/" + relative + "/xcmapping.xml"
          if fm.fileExists(atPath: document) { found.append(document) }
          continue
        }
        guard name.lowercased().hasSuffix(".xml") else { continue }
        let full = base + "/" + relative
        var dir: ObjCBool = false
        if fm.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue, everyXML || isMappingFile(full) {
          found.append(full)
        }
      }
      result += found.sorted()
    }
    var seen: Set<String> = []
    return result.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
  }

  /// True when the first element of the file is `<mappingModel` (looks at the first 64 KiB).
  static func isMappingFile(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: 65536)) ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    var rest = Substring(text)
    if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() }
    while true {
      rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      if rest.hasPrefix("<?") {
        guard let end = rest.range(of: "?>") else { return false }
        rest = rest[end.upperBound...]
      } else if rest.hasPrefix("<!--") {
        guard let end = rest.range(of: "-->") else { return false }
        rest = rest[end.upperBound...]
      } else if rest.hasPrefix("<!") {
        guard let end = rest.firstIndex(of: ">") else { return false }
        rest = rest[rest.index(after: end)...]
      } else {
        guard rest.hasPrefix("<mappingModel") else { return false }
        let after = rest.dropFirst("<mappingModel".count).first
        return after == nil || after == ">" || after == "/" || after!.isWhitespace
      }
    }
  }
}
