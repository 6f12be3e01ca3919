import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapSyntax
import MapTools
import MapcKit

extension MapcCommand {
  struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a compiled plan (.cdm) in readable form.",
      discussion: """
        A mapping XML file or an Xcode .xcmappingmodel is compiled in memory first (its \
        diagnostics go to standard error; exit 1 when it has errors). --format mermaid, svg or \
        html draws the mapping instead: source entities, the entity mappings with their value \
        expressions, destination entities (SVG and HTML are laid out by Graphviz's dot).
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, mermaid, svg, html
    }

    @Argument(help: "A plan written by `mapc compile`, a mapping XML file, or an Xcode .xcmappingmodel.")
    var plan: String

    @Option(help: "text (default), or a picture: mermaid, svg or html.")
    var format: Format = .text

    func run() throws {
      do {
        let bytes: [UInt8]
        var base: String? = nil
        if PlanSource.isMapping(plan) {
          let result = MappingCompilation.compile(mappingPath: plan)
          Console.report(result.diagnostics)
          guard let compiled = result.plan else { throw ExitCode(.inputErrors) }
          bytes = PlanWriter.encode(compiled)
        } else {
          bytes = try PlanReader.readBytes(plan)
          base = PlanReader.folder(of: plan)
        }
        let header = try PlanReader.verify(bytes, path: plan)
        let decoded = try PlanReader.decode(bytes, path: plan, pathBase: base)
        let listing = PlanListing(plan: decoded, header: header).text
        if format == .text {
          print(listing, terminator: "")
        } else {
          let text = try Diagrams.render(Diagram.of(decoded), format: format.rawValue, summary: listing)
          FileHandle.standardOutput.write(Data(text.utf8))
        }
      } catch let error as PlanFormatError {
        throw Console.failure(error, path: plan, exit: .inputErrors)
      }
    }
  }
}

/// The text `mapc dump` prints: everything in a plan, in plan order, two-space indented.
/// Expressions are printed in canonical form (`String(describing:)`), with where they were
/// written; precompiled predicate strings come last.
struct PlanListing {
  var plan: MigrationPlan
  var header: PlanHeader

  var text: String {
    var out = Lines()
    out.add(0, "plan \(plan.name)")
    out.add(1, "format version: \(header.formatVersion)")
    out.add(1, "body: \(header.bodyLength) bytes, sha256 \(hex(header.checksum))")
    out.add(1, "mapping: \(plan.mappingPath)")
    userInfo(plan.userInfo, at: 1, into: &out)
    model("source model", plan.sourceModel, plan.sourceEntityHashes, into: &out)
    model("destination model", plan.destinationModel, plan.destinationEntityHashes, into: &out)
    out.add(0, "entity mappings (\(plan.entityMappings.count)):")
    for (i, mapping) in plan.entityMappings.enumerated() {
      entityMapping(mapping, number: i + 1, into: &out)
    }
    // Predicate strings of fetch requests and filters, parsed at compile time: the text as
    // written (a string literal), then the parsed predicate in canonical form.
    out.add(0, "precompiled predicates (\(plan.predicates.count)):")
    for p in plan.predicates {
      out.add(1, "\(MapRuntime.Expression.string(p.text)) = \(p.predicate)")
    }
    return out.text
  }

  private func model(_ title: String, _ m: ObjectModel, _ hashes: [EntityHash], into out: inout Lines) {
    out.add(0, "\(title): \(m.versionName ?? "(unnamed)")")
    if let path = m.path { out.add(1, "path: \(path)") }
    out.add(1, "version identifiers: \(m.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", "))")
    out.add(1, "entities (\(m.entities.count)):")
    let width = m.entities.map(\.name.count).max() ?? 0
    for entity in m.entities {
      let hash = hashes.first { $0.entity == entity.name }.map { base64($0.hash) } ?? "(no hash)"
      var notes: [String] = []
      if let parent = entity.parentName { notes.append("parent \(parent)") }
      if entity.isAbstract { notes.append("abstract") }
      notes.append(plural(entity.attributes.count, "attribute"))
      notes.append(plural(entity.relationships.count, "relationship"))
      let padded = entity.name + String(repeating: " ", count: max(0, width - entity.name.count))
      out.add(2, "\(padded)  \(hash)  (\(notes.joined(separator: ", ")))")
    }
    let modelNames = Set(m.entities.map(\.name))
    for h in hashes where !modelNames.contains(h.entity) {
      out.add(2, "\(h.entity)  \(base64(h.hash))  (hash only, not in the model)")
    }
    if !m.fetchRequestTemplates.isEmpty {
      out.add(1, "fetch request templates: \(m.fetchRequestTemplates.map(\.name).joined(separator: ", "))")
    }
    if !m.configurations.isEmpty {
      out.add(1, "configurations: \(m.configurations.map(\.name).joined(separator: ", "))")
    }
  }

  private func entityMapping(_ m: EntityMapping, number: Int, into out: inout Lines) {
    let source = m.sourceEntity ?? "(none)"
    let destination = m.destinationEntity ?? "(none)"
    out.add(1, "\(number). \(m.name) (\(m.type.rawValue)): \(source) -> \(destination)")
    if let location = m.location { out.add(2, "defined at \(location)") }
    if let policy = m.policyName { out.add(2, "policy: \(policy)") }
    userInfo(m.userInfo, at: 2, into: &out)
    expression("source", m.sourceExpression, at: 2, into: &out)
    expression("forEach", m.forEach, at: 2, into: &out)
    propertyMappings("attributes", m.attributeMappings, into: &out)
    propertyMappings("relationships", m.relationshipMappings, into: &out)
  }

  private func propertyMappings(_ title: String, _ mappings: [PropertyMapping], into out: inout Lines) {
    guard !mappings.isEmpty else { return }
    out.add(2, "\(title) (\(mappings.count)):")
    for p in mappings {
      expression(
        p.name, p.valueExpression, definedAt: p.location, at: 3, into: &out,
        absent: "(no expression)")
      userInfo(p.userInfo, at: 4, into: &out)
    }
  }

  private func expression(
    _ label: String, _ e: CompiledExpression?, definedAt location: SourceLocation? = nil,
    at level: Int, into out: inout Lines, absent: String? = nil
  ) {
    if let e {
      out.add(level, "\(label) = \(String(describing: e.expression))")
    } else if let absent {
      out.add(level, "\(label): \(absent)")
    }
    if let location { out.add(level + 1, "defined at \(location)") }
    if let source = e?.source { out.add(level + 1, "expression at \(source.location)") }
  }

  private func userInfo(_ info: UserInfo, at level: Int, into out: inout Lines) {
    guard !info.isEmpty else { return }
    out.add(level, "user info:")
    for entry in info.entries {
      let key = entry.key.isEmpty ? "\"\"" : entry.key
      out.add(level + 1, "\(key) = \"\(entry.value)\"")
    }
  }

  private func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
  private func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}

/// Indented output lines.
private struct Lines {
  private(set) var text = ""
  mutating func add(_ level: Int, _ line: String) {
    text += String(repeating: "  ", count: level) + TerminalText.escaped(line) + "\n"
  }
}
