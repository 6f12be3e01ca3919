import Foundation
import MapTestSupport
import Testing

/// The command line says what is wrong, with the documented exit status (`Specs/diagnostics.md`
/// §2): unknown commands and misspelt options are named, `eval` reads a format starting with
/// `-`, integer division cannot overflow silently, `eval` prints JSON that JSON readers accept,
/// every error of `lint` has its id, text that is not XML is not "empty", a file error is
/// words, and a summary comes after the errors it points to.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct CLIHygieneTests {
  @Test func helpOfAnUnknownCommandIsAUsageError() {
    for args in [["help", "nosuchcommand"], ["help", "store", "nosuch"]] {
      let r = runMapc(args)
      #expect(r.exitCode == 64, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("Unknown command '\(args.last!)'"), "\(r.stderr)")
    }
    let known = runMapc(["help", "store", "export"])
    #expect(known.exitCode == 0 && known.stdout.contains("USAGE: mapc store export"), "\(known.stderr)")
  }

  @Test func misspeltOptionIsNamedWithTheNearest() {
    let r = runMapc(["run", "plan.cdm", "--stroe", "s.json", "--output", "o.json"])
    #expect(r.exitCode == 64)
    #expect(r.stderr.contains("Unknown option '--stroe' for 'mapc run'; did you mean '--store'?"), "\(r.stderr)")
    #expect(!r.stderr.contains("Missing expected argument"), "\(r.stderr)")
    let far = runMapc(["store", "export", "s.sqlite", "--model", "M.xcdatamodeld", "-o", "o.json", "--zzzzzz"])
    #expect(far.exitCode == 64)
    #expect(far.stderr.contains("Unknown option '--zzzzzz'") && !far.stderr.contains("did you mean"), "\(far.stderr)")
  }

  @Test func evalReadsAFormatStartingWithAMinus() {
    for (args, out) in [
      (["eval", "--expression", "-1"], "-1\n"),
      (["eval", "--expression", "-1 + 3", "--object", "5"], "2\n"),
      (["eval", "--object=-3", "--expression", "-SELF"], "3\n"),
      (["eval", "--expression", "--", "-4"], "-4\n"),
      (["eval", "--expression", "SELF * 2", "--object", "-5"], "-10\n"),
      (["eval", "--expression", "-SELF", "--object", "-5"], "5\n"),
    ] {
      let r = runMapc(args)
      #expect(r.exitCode == 0 && r.stdout == out, "\(args): \(r.stdout) \(r.stderr)")
    }
  }

  @Test func integerDivisionOverflowIsAnError() {
    let r = runMapc(["eval", "--expression", "divide:by:(-9223372036854775807 - 1, -1)"])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("overflows a 64-bit integer [run-arithmetic]"), "\(r.stdout) \(r.stderr)")
    let operatorForm = runMapc(["eval", "--expression", "(-9223372036854775807 - 1) / -1"])
    #expect(operatorForm.exitCode == 1 && operatorForm.stderr.contains("[run-arithmetic]"), "\(operatorForm.stdout)")
    let remainder = runMapc(["eval", "--expression", "modulus:by:(-9223372036854775807 - 1, -1)"])
    #expect(remainder.stdout == "0\n", "\(remainder.stderr)")
  }

  /// python3's json module, told to refuse NaN and Infinity, reads what eval prints.
  @Test func evalPrintsStrictJSON() throws {
    let r = runMapc(["eval", "--expression", "{0.0 / 0.0, 1.0 / 0.0, -1.0 / 0.0, 1.5}"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let check = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        """
        import json, sys
        def refuse(c): raise ValueError(c)
        print(json.loads(sys.argv[1], parse_constant=refuse))
        """,
        r.stdout,
      ])
    #expect(check.exitCode == 0, "\(r.stdout) \(check.stderr)")
    #expect(
      check.stdout == "[{'$real': 'NaN'}, {'$real': 'Infinity'}, {'$real': '-Infinity'}, 1.5]\n",
      "\(check.stdout)")
  }

  @Test func lintErrorsHaveTheirIds() throws {
    let dir = try Hardening.folder("cli-hygiene")
    defer { try? FileManager.default.removeItem(at: dir) }
    let empty = dir.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let badBaseline = dir.appendingPathComponent("b.json")
    try Data("[1, 2]".utf8).write(to: badBaseline)
    let mapping = dir.appendingPathComponent("m.xml").path
    for (args, id) in [
      (["lint", "--explain", "lint-no-such-rule"], "usage-unknown-rule"),
      (["lint", dir.appendingPathComponent("missing.xml").path], "usage-path-not-found"),
      (["lint", empty.path], "usage-no-mapping-files"),
      (["lint", mapping, "--baseline", badBaseline.path], "usage-baseline"),
    ] {
      let r = runMapc(args)
      #expect(r.exitCode == 64, "\(args): \(r.stderr)")
      #expect(r.stderr.hasPrefix("mapc: error: ") && r.stderr.hasSuffix(" [\(id)]\n"), "\(args): \(r.stderr)")
    }
    // Written to a device, as every output (Specs/limits.md "Output paths").
    let device = runMapc(["lint", mapping, "--write-baseline", "/dev/null"])
    #expect(device.exitCode == 0, "\(device.stderr)")
    #expect(device.stderr.contains("/dev/null: baseline written with 0 entries"), "\(device.stderr)")
  }

  @Test func textThatIsNotXMLIsNotEmpty() throws {
    let dir = try FileManagerTemp.folder("cli-hygiene")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, bytes, id) in [
      ("text.xml", Array("hello, not XML".utf8), "xml-syntax"),
      ("binary.xml", [0x00, 0x01, 0x02, 0x7F], "xml-syntax"),
      ("blank.xml", Array("  \n\t\n".utf8), "xml-empty"),
      ("zero.xml", [], "xml-empty"),
    ] as [(String, [UInt8], String)] {
      let file = dir.appendingPathComponent(name)
      try Data(bytes).write(to: file)
      let r = runMapc(["compile", file.path, "-o", dir.appendingPathComponent("x.cdm").path])
      #expect(r.exitCode == 1, "\(name): \(r.stderr)")
      #expect(r.stderr.contains("[\(id)]"), "\(name): \(r.stderr)")
    }
  }

  @Test func fileErrorsAreWords() throws {
    let dir = try Hardening.folder("cli-hygiene")
    defer { try? FileManager.default.removeItem(at: dir) }
    let blocker = dir.appendingPathComponent("afile")
    try Data("x".utf8).write(to: blocker)
    let r = runMapc([
      "lint", dir.appendingPathComponent("m.xml").path, "--write-baseline",
      blocker.appendingPathComponent("b.json").path,
    ])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("cannot write the baseline: '\(blocker.path)': file exists [io-write]"), "\(r.stderr)")
    #expect(!r.stderr.contains("Error Domain"), "\(r.stderr)")
    // A folder mapc may not write in (not testable as root, who may write anywhere).
    guard getuid() != 0 else { return }
    let readOnly = dir.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
    let bundle = try ModelBundles.bundle(Hardening.sourceModel, named: "P", in: readOnly)
    _ = bundle
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
    let out = runMapc(["lint", dir.appendingPathComponent("m.xml").path, "--write-baseline", readOnly.path + "/b.json"])
    #expect(!out.stderr.contains("Error Domain"), "\(out.stderr)")
  }

  /// "the errors above say why" comes after those errors.
  @Test func uncoveredStepComesAfterItsReasons() throws {
    let dir = try FileManagerTemp.folder("cli-hygiene")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = dir.appendingPathComponent("B.xcdatamodeld")
    for (v, type) in [(1, "String"), (2, "Date")] {
      let folder = bundle.appendingPathComponent("B\(v).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(v)">
            <entity name="Note"><attribute name="title" optional="YES" attributeType="\(type)"/></entity>
        </model>
        """.utf8
      ).write(to: folder.appendingPathComponent("contents"))
    }
    let metadata = try ModelBundles.storeMetadata(bundle.appendingPathComponent("B1.xcdatamodel"))
    let store = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": metadata, "objects": ["Note": [["id": "n1", "title": "a"]]],
    ]).write(to: store)
    let r = runMapc(["migrate", "--model", bundle.path, "--store", store.path])
    #expect(r.exitCode == 1, "\(r.stderr)")
    let lines = r.stderr.split(separator: "\n")
    let reason = lines.firstIndex { $0.contains("[infer-type-change]") }
    let summary = lines.firstIndex { $0.contains("(the errors above say why)") }
    #expect(reason != nil && summary != nil && reason! < summary!, "\(r.stderr)")
  }
}
