import Foundation
import MapArchives
import MapTestSupport

/// One binary attribute (`sourcemodeldata`, `destinationmodeldata`, `valueexpressiondata`,
/// `userinfodata`) of a corpus `xcmapping.xml`, base64-decoded.
struct CorpusArchive: Sendable, CustomStringConvertible {
  /// The file, relative to the corpus folder.
  var file: String
  var attribute: String
  /// Which binary attribute of the file (0, 1, …), in file order.
  var ordinal: Int
  var bytes: [UInt8]

  var description: String { "\(file) [\(ordinal)] \(attribute)" }
}

enum PropertyListCorpus {
  /// Every binary attribute of every `xcmapping.xml` under `../shared/corpus`; empty when the
  /// corpus is absent.
  static let archives: [CorpusArchive] = load()

  static var available: Bool { SharedPaths.corpus != nil }

  static func load() -> [CorpusArchive] {
    guard let corpus = SharedPaths.corpus else { return [] }
    let root = corpus.standardizedFileURL.path
    guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
    var files: [String] = []
    while let item = walk.nextObject() as? String {
      if (item as NSString).lastPathComponent == "xcmapping.xml" { files.append(item) }
    }
    files.sort()
    var result: [CorpusArchive] = []
    for file in files {
      guard let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8) else { continue }
      for (ordinal, (name, base64)) in binaryAttributes(text).enumerated() {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else { continue }
        result.append(CorpusArchive(file: file, attribute: name, ordinal: ordinal, bytes: Array(data)))
      }
    }
    return result
  }

  /// `(name, base64 text)` of each `<attribute name="…" type="binary">…</attribute>`.
  static func binaryAttributes(_ text: String) -> [(String, String)] {
    var found: [(String, String)] = []
    var rest = text[...]
    let open = "<attribute name=\""
    while let start = rest.range(of: open) {
      rest = rest[start.upperBound...]
      guard let nameEnd = rest.firstIndex(of: "\"") else { break }
      let name = String(rest[..<nameEnd])
      let afterName = rest[nameEnd...]
      let binary = "\" type=\"binary\">"
      guard afterName.hasPrefix(binary) else { continue }
      let body = afterName.dropFirst(binary.count)
      guard let end = body.range(of: "</attribute>") else { break }
      found.append((name, String(body[..<end.lowerBound])))
      rest = body[end.upperBound...]
    }
    return found
  }

  /// Count of binary attributes in the corpus as a plain text search sees them (a check that
  /// `binaryAttributes` missed none).
  static func binaryAttributeMentions() -> Int {
    guard let corpus = SharedPaths.corpus else { return 0 }
    let root = corpus.standardizedFileURL.path
    guard let walk = FileManager.default.enumerator(atPath: root) else { return 0 }
    var n = 0
    while let item = walk.nextObject() as? String {
      guard (item as NSString).lastPathComponent == "xcmapping.xml",
        let text = try? String(contentsOfFile: root + "/" + item, encoding: .utf8)
      else { continue }
      n += text.components(separatedBy: "type=\"binary\"").count - 1
    }
    return n
  }
}

/// Runs python3 on byte blobs written to a temporary folder (`0.bin`, `1.bin`, …): the script
/// gets the folder and the number of blobs as `sys.argv[1]` and `sys.argv[2]`.
enum PythonOracle {
  static let available: Bool = {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", "import plistlib"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
  }()

  static let absentMessage = "python3 with plistlib is not installed"

  /// The script's standard output, or a failure with its combined output.
  static func run(_ script: String, blobs: [[UInt8]]) throws -> String {
    let folder = try FileManagerTemp.folder("plist-oracle")
    defer { FileManagerTemp.remove(folder.path) }
    for (i, blob) in blobs.enumerated() {
      try Data(blob).write(to: folder.appendingPathComponent("\(i).bin"))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, folder.path, String(blobs.count)]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting, so that a full pipe cannot block the script.
    let errText = ReadInBackground(err.fileHandleForReading)
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw OracleFailure(message: "python3 exited with \(process.terminationStatus): \(errText.text())")
    }
    return String(decoding: data, as: UTF8.self)
  }

  struct OracleFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  private final class ReadInBackground: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
      Thread {
        self.data = handle.readDataToEndOfFile()
        self.done.signal()
      }.start()
    }
    func text() -> String {
      done.wait()
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// Python: `canon(v)` turns a plistlib value into nested lists that keep types apart (bool
  /// and int), dictionary key order, float bit patterns and exact strings; `dump(x)` is its
  /// compact JSON, the same text `PropertyListCanon.json` makes from a `PropertyListValue`.
  static let canonFunction = """
    import plistlib, struct, datetime, json, sys, os
    def hexstr(s): return s.encode("utf-16-be", "surrogatepass").hex()
    def canon(v):
        if isinstance(v, bool): return ["bool", v]
        if isinstance(v, int): return ["int", str(v)]
        if isinstance(v, float): return ["real", struct.pack(">d", v).hex()]
        if isinstance(v, str): return ["string", hexstr(v)]
        if isinstance(v, bytes): return ["data", v.hex()]
        if isinstance(v, plistlib.UID): return ["uid", str(v.data)]
        if isinstance(v, datetime.datetime):
            d = v - datetime.datetime(2001, 1, 1)
            return ["date", "%d.%06d" % (d.days * 86400 + d.seconds, d.microseconds)]
        if isinstance(v, list): return ["array", [canon(x) for x in v]]
        if isinstance(v, dict): return ["dict", [[hexstr(k), canon(x)] for k, x in v.items()]]
        return ["other", repr(v)]
    def dump(x): return json.dumps(x, separators=(",", ":"))
    def blob(i):
        with open(os.path.join(sys.argv[1], "%d.bin" % i), "rb") as f:
            return f.read()
    count = int(sys.argv[2])

    """
}

/// The Swift side of `PythonOracle.canonFunction`: the same JSON text for the same value.
/// (Dates are written as whole seconds and microseconds, as python's datetime holds them; the
/// tests use whole-second dates.)
enum PropertyListCanon {
  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    var s = ""
    for b in bytes {
      s.append(digits[Int(b >> 4)])
      s.append(digits[Int(b & 0xF)])
    }
    return s
  }

  static func hex(utf16 s: String) -> String {
    hex(s.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] })
  }

  static func json(_ v: PropertyListValue) -> String {
    switch v {
    case .bool(let b): return "[\"bool\",\(b)]"
    case .integer(let i): return "[\"int\",\"\(i)\"]"
    case .real(let d): return "[\"real\",\"\(hex(RawPlist.bigEndian(d.bitPattern, 8)))\"]"
    case .string(let s): return "[\"string\",\"\(hex(utf16: s))\"]"
    case .data(let d): return "[\"data\",\"\(hex(d))\"]"
    case .uid(let u): return "[\"uid\",\"\(u)\"]"
    case .date(let d):
      precondition(d == d.rounded(), "the canonical form needs whole-second dates")
      return "[\"date\",\"\(Int64(d)).000000\"]"
    case .array(let items): return "[\"array\",[" + items.map(json).joined(separator: ",") + "]]"
    case .dictionary(let entries):
      return "[\"dict\",[" + entries.map { "[\"\(hex(utf16: $0.key))\",\(json($0.value))]" }.joined(separator: ",")
        + "]]"
    case .null: return "[\"other\",\"None\"]"
    }
  }
}
