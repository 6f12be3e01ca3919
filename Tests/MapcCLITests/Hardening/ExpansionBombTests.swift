import Foundation
import MapTestSupport
import Testing

/// Property lists and keyed archives built to expand: arrays each holding the one below twice,
/// written once each (python3's plistlib shares a list object referred to twice). 24 levels of a
/// 50-byte string stand for 16 million strings (800 MB). In a store's `Z_METADATA` and in an
/// `.xcmappingmodel`'s user info they are refused with `limit-expanded-size`, naming the file,
/// within seconds and a bounded amount of memory, measured by python3 (`getrusage`).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ExpansionBombTests {
  static let generator = """
    import plistlib, sys, base64, re, sqlite3
    UID = plistlib.UID
    def archive(levels):
        objs = ['$null']
        objs.append({'$classname': 'NSDictionary', '$classes': ['NSDictionary', 'NSObject']})
        objs.append({'$classname': 'NSArray', '$classes': ['NSArray', 'NSObject']})
        objs.append('x' * 50)
        below = 3
        for i in range(levels):
            objs.append({'NS.objects': [UID(below), UID(below)], '$class': UID(2)})
            below = len(objs) - 1
        objs.append('bomb')
        objs.append({'NS.keys': [UID(len(objs) - 1)], 'NS.objects': [UID(below)], '$class': UID(1)})
        top = {'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(len(objs) - 1)},
               '$objects': objs}
        return plistlib.dumps(top, fmt=plistlib.FMT_BINARY)
    def shared(levels):
        a = ['x' * 50]
        for i in range(levels):
            a = [a, a]
        return a
    what, path, levels = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if what == 'xcmapping':
        text = open(path).read()
        b64 = base64.b64encode(archive(levels)).decode()
        text, n = re.subn(r'(<attribute name="userinfodata" type="binary">)[^<]*', lambda m: m.group(1) + b64, text)
        assert n == 1
        open(path, 'w').write(text)
    else:
        c = sqlite3.connect(path)
        (blob,) = c.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()
        meta = plistlib.loads(blob)
        meta['bomb'] = shared(levels)
        c.execute('UPDATE Z_METADATA SET Z_PLIST = ?', (plistlib.dumps(meta, fmt=plistlib.FMT_BINARY),))
        c.commit()
    """

  /// Runs mapc under python3 and returns its result with its peak memory (KB) and seconds.
  static func measured(_ arguments: [String]) throws -> (result: MapcResult, kilobytes: Int, seconds: Double) {
    var result = runMapc(["--version"])
    let mapc = try #require(mapcExecutable)
    let script = """
      import resource, subprocess, sys, time
      start = time.monotonic()
      p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
      sys.stderr.buffer.write(p.stderr)
      print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.monotonic() - start)
      """
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, mapc.path] + arguments)
    let parts = r.stdout.split(separator: " ")
    try #require(parts.count == 3, "\(r.stdout) \(r.stderr)")
    let code = try #require(Int32(parts[0]))
    let kb = try #require(Int(parts[1]))
    let seconds = try #require(Double(parts[2].trimmingCharacters(in: .whitespacesAndNewlines)))
    result.exitCode = code
    result.stdout = ""
    result.stderr = r.stderr
    return (result, kb, seconds)
  }

  static func generate(_ what: String, _ path: String, levels: Int) throws {
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", generator, what, path, String(levels)])
    try #require(r.exitCode == 0, "\(r.stderr)")
  }

  @Test func storeMetadata() throws {
    let dir = try FileManagerTemp.folder("expansion-bomb")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = try ModelBundles.bundle(HostileKeyTests.model, named: "N", in: dir)
    let metadata = try ModelBundles.storeMetadata(bundle)
    let json = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": metadata, "objects": ["Note": [["id": "Note/1", "title": "a"]]],
    ]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    try Self.generate("store", store, levels: 26)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
    #expect(size < 100_000)
    let out = dir.appendingPathComponent("out.json").path
    for args in [
      ["store", "export", store, "--model", bundle.path, "-o", out],
      ["store", "info", store, "--model", bundle.path],
    ] {
      let (r, kb, seconds) = try Self.measured(args)
      #expect(r.exitCode == 2, "\(args[1]): \(r.stderr)")
      #expect(r.stderr.hasPrefix("\(store): error: Z_METADATA.Z_PLIST: the property list expands to more than"))
      #expect(r.stderr.contains("[limit-expanded-size]"), "\(r.stderr)")
      #expect(seconds < 10, "\(args[1]) took \(seconds) s")
      #expect(kb < 300_000, "\(args[1]) peaked at \(kb) KB")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func mappingModelUserInfo() throws {
    let dir = try FileManagerTemp.folder("expansion-bomb")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try ModelBundles.bundle(HostileKeyTests.model, named: "N", in: dir)
    let mapping = HostileKeyTests.mapping.replacingOccurrences(
      of: #"destination="Note"/>"#,
      with: #"destination="Note"><userInfo><entry key="k" value="v"/></userInfo></entityMapping>"#)
    let xml = dir.appendingPathComponent("m.xml")
    try Data(mapping.utf8).write(to: xml)
    let xcmapping = dir.appendingPathComponent("M.xcmappingmodel")
    let exported = runMapc(["export", xml.path, "-o", xcmapping.path])
    try #require(exported.exitCode == 0, "\(exported.stderr)")
    let file = xcmapping.appendingPathComponent("xcmapping.xml").path
    try Self.generate("xcmapping", file, levels: 24)
    for args in [
      ["import", xcmapping.path, "-o", dir.appendingPathComponent("back.xml").path],
      ["compile", xcmapping.path, "-o", dir.appendingPathComponent("m.cdm").path],
      ["lint", xcmapping.path],
      ["dump", xcmapping.path],
    ] {
      let (r, kb, seconds) = try Self.measured(args)
      #expect(r.exitCode == 1, "\(args[0]): \(r.stderr)")
      #expect(
        r.stderr.contains("\(file):") && r.stderr.contains("the archive expands to more than")
          && r.stderr.contains("[limit-expanded-size]"), "\(args[0]): \(r.stderr)")
      #expect(seconds < 10, "\(args[0]) took \(seconds) s")
      #expect(kb < 300_000, "\(args[0]) peaked at \(kb) KB")
    }
  }
}
