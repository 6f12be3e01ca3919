import Foundation
import MapCompiler
import MapModelReader
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// One fixture's mapping file (each folder of ../shared/fixtures, from its fixture.json).
struct FixtureMapping: CustomStringConvertible, Sendable {
  var path: String
  var description: String { URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent }
}

func allFixtureMappings() -> [FixtureMapping] {
  var seen: Set<String> = []
  return allFixtureCases().compactMap { c in
    let path = c.folder.appendingPathComponent(c.mapping).path
    return seen.insert(path).inserted ? FixtureMapping(path: path) : nil
  }
}

/// `mapc compile` is deterministic and `mapc dump` shows every mapping, expression and hash of
/// each fixture. The expected values come from the mapping file and the models themselves
/// (reader, parser, canonical printer, VersionHasher), not from the compiler's plan.
@Suite(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct FixtureCompileTests {
  @Test(arguments: allFixtureMappings())
  func compilingTwiceGivesIdenticalBytes(_ m: FixtureMapping) throws {
    let a = FileManagerTemp.path("a.cdm"), b = FileManagerTemp.path("b.cdm")
    defer {
      FileManagerTemp.remove(a)
      FileManagerTemp.remove(b)
    }
    let first = runMapc(["compile", m.path, "-o", a])
    let second = runMapc(["compile", m.path, "-o", b])
    #expect(first.exitCode == 0, "\(first.stderr)")
    #expect(second.exitCode == 0, "\(second.stderr)")
    let x = try Data(contentsOf: URL(fileURLWithPath: a))
    let y = try Data(contentsOf: URL(fileURLWithPath: b))
    #expect(x.count > 1000)
    #expect(x == y)
  }

  @Test(arguments: allFixtureMappings())
  func dumpListsEveryMappingExpressionAndHash(_ m: FixtureMapping) throws {
    let plan = FileManagerTemp.path("p.cdm")
    defer { FileManagerTemp.remove(plan) }
    let compile = runMapc(["compile", m.path, "-o", plan])
    #expect(compile.exitCode == 0, "\(compile.stderr)")
    let dump = runMapc(["dump", plan])
    #expect(dump.exitCode == 0, "\(dump.stderr)")
    let out = dump.stdout
    let lines = out.split(separator: "\n").map { String($0.drop(while: { $0 == " " })) }

    let (document, readDiagnostics) = try MappingReader.read(path: m.path)
    #expect(readDiagnostics.isEmpty)
    // Every entity mapping, by name, in order, with its entities.
    for (i, e) in document.entityMappings.enumerated() {
      let name = try #require(e.name?.value)
      let header = "\(i + 1). \(name) ("
      #expect(lines.contains { $0.hasPrefix(header) }, "mapping \(name)")
    }
    #expect(out.contains("entity mappings (\(document.entityMappings.count)):\n"))

    // Every expression written in the file, in canonical form, with its position.
    var written: [(String, ExpressionText)] = []
    for e in document.entityMappings {
      for p in e.attributes + e.relationships {
        if let x = p.expression { written.append((p.name.value, x)) }
      }
      if let x = e.sourceExpression { written.append(("source", x)) }
      if let x = e.forEach { written.append(("forEach", x)) }
    }
    #expect(written.count >= 5)
    for (label, x) in written {
      let parsed = try ExpressionParser.parseExpression(x.text)
      #expect(lines.contains("\(label) = \(parsed)"), "\(label) = \(parsed)")
      #expect(lines.contains("expression at \(x.location)"), "\(label) at \(x.location)")
    }

    // Every predicate string written in a fetch request, as text and parsed.
    for (_, x) in written where x.text.contains("predicateString:") {
      let parsed = try ExpressionParser.parseExpression(x.text)
      for text in predicateStrings(in: parsed) {
        let predicate = try ExpressionParser.parsePredicate(text)
        #expect(lines.contains("\(MapRuntime.Expression.string(text)) = \(predicate)"), "predicate \(text)")
      }
    }

    // Every entity of both models with its version hash, computed here from the models.
    let folder = URL(fileURLWithPath: m.path).deletingLastPathComponent()
    for reference in [document.sourceModel, document.destinationModel] {
      let r = try #require(reference)
      let model = try ModelLoader.load(path: folder.appendingPathComponent(r.path.value).path).model
      let hashes = VersionHasher.entityHashes(of: model)
      #expect(hashes.count == model.entities.count)
      for h in hashes {
        let base64 = Data(h.hash).base64EncodedString()
        #expect(
          lines.contains { $0.hasPrefix(h.entity + " ") && $0.contains("  \(base64)  (") },
          "\(h.entity) \(base64)")
      }
    }
  }

  /// The string literals passed as the predicate of `fetchRequestFor…:predicateString:`.
  func predicateStrings(in e: MapRuntime.Expression) -> [String] {
    var found: [String] = []
    func walk(_ e: MapRuntime.Expression) {
      switch e.kind {
      case .selector(let target, let selector, let arguments):
        if selector.hasSuffix("predicateString:"), arguments.count == 2,
          case .constant(.string(let text)) = arguments[1].kind
        {
          found.append(text)
        }
        walk(target)
        arguments.forEach(walk)
      case .fetch(let request, let context, _):
        walk(request)
        walk(context)
      case .function(_, let arguments):
        arguments.forEach(walk)
      case .keyPath(let base, _):
        walk(base)
      default:
        break
      }
    }
    walk(e)
    return found
  }
}
