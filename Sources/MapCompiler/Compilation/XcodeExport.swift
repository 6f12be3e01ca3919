import Crypto
import Foundation
import MapRuntime
import MapSyntax

/// `mapc export`: a mapping as an Xcode mapping model (`X.xcmappingmodel/xcmapping.xml`) in the
/// form Xcode writes (`Specs/xcmappingmodel.md` §8): the XML-store envelope and metadata of
/// Xcode's mapping schema, one object per entity mapping and per destination property, the
/// `mappingnumber` order, both models as `XDPMModel` snapshots and value expressions as
/// `NSKeyedArchiver` archives. What Xcode's format cannot hold (`<forEach>`, a source expression
/// other than the default fetch) is an error (`xcmap-export-unsupported`).
public enum XcodeExport {
  public struct Output: Sendable {
    public var text: String?
    public var diagnostics: [Diagnostic]
    /// The model files the mapping was compiled against (`MappingCompilation.Output.modelPaths`).
    public var models: [String] = []
    /// With `policySource`: the Swift file of the policy classes that implement mapc's functions
    /// on the device (`PolicySourceWriter`); nil when the mapping calls none.
    public var policySource: String?
  }

  public static func text(
    mappingPath: String, outputPath: String, source: MappingCompilation.ModelOverride? = nil,
    destination: MappingCompilation.ModelOverride? = nil, policySource: Bool = false
  ) -> Output {
    let compiled = MappingCompilation.compile(mappingPath: mappingPath, source: source, destination: destination)
    guard let plan = compiled.plan, let document = compiled.document, let models = compiled.models else {
      return Output(text: nil, diagnostics: compiled.diagnostics)
    }
    let absolute = PathText.absolute(outputPath)
    let modelName = ((absolute.hasSuffix("/") ? String(absolute.dropLast()) : absolute) as NSString)
      .lastPathComponent.replacingOccurrences(of: ".xcmappingmodel", with: "")
    var writer = Writer(outputFolder: PathText.folder(of: absolute))
    writer.diagnostics = compiled.diagnostics
    writer.policies = policySource ? PolicySourceWriter(modelName: modelName) : nil
    let text = writer.write(document: document, plan: plan, models: models)
    let diagnostics = writer.diagnostics.sortedByLocation()
    let policies = writer.policies.flatMap { $0.classes.isEmpty ? nil : $0.source(mappingName: modelName) }
    return Output(
      text: diagnostics.hasErrors ? nil : text, diagnostics: diagnostics,
      models: compiled.modelPaths(mapping: mappingPath, source: source, destination: destination),
      policySource: diagnostics.hasErrors ? nil : policies)
  }

  /// Writes `text` as `folder/xcmapping.xml`, creating the `.xcmappingmodel` folder if needed.
  public static func write(_ text: String, toWrapper folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try AtomicFileWriter.replaceContents(of: folder + "/xcmapping.xml", with: text)
  }

  /// The `<metadata>` of every Xcode mapping model: the version hashes of Xcode's own mapping
  /// schema, which are the same in every file the corpus holds (2009–2025).
  static let metadata = """
            <metadata>
                <plist version="1.0">
                    <dict>
                        <key>NSPersistenceFrameworkVersion</key>
                        <integer>977</integer>
                        <key>NSStoreModelVersionHashes</key>
                        <dict>
                            <key>XDDevAttributeMapping</key>
                            <data>
    		0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc=
    		</data>
                            <key>XDDevEntityMapping</key>
                            <data>
    		qeN1Ym3TkWN1G6dU9RfX6Kd2ccEvcDVWHpd3LpLgboI=
    		</data>
                            <key>XDDevMappingModel</key>
                            <data>
    		EqtMzvRnVZWkXwBHu4VeVGy8UyoOe+bi67KC79kphlQ=
    		</data>
                            <key>XDDevPropertyMapping</key>
                            <data>
    		XN33V44TTGY4JETlMoOB5yyTKxB+u4slvDIinv0rtGA=
    		</data>
                            <key>XDDevRelationshipMapping</key>
                            <data>
    		akYY9LhehVA/mCb4ATLWuI9XGLcjpm14wWL1oEBtIcs=
    		</data>
                        </dict>
                        <key>NSStoreModelVersionHashesDigest</key>
                        <string>+Hmc2uYZK6og+Pvx5GUJ7oW75UG4V/ksQanTjfTKUnxyGWJRMtB5tIRgVwGsrd7lz/QR57++wbvWsr6nxwyS0A==</string>
                        <key>NSStoreModelVersionHashesVersion</key>
                        <integer>3</integer>
                        <key>NSStoreModelVersionIdentifiers</key>
                        <array>
                            <string></string>
                        </array>
                    </dict>
                </plist>
            </metadata>

    """

  struct Writer {
    let outputFolder: String
    var diagnostics: [Diagnostic] = []
    var nextID = 102
    var objects: [String] = []
    /// The policy classes being generated (`--policy-source`); nil when the calls a device lacks
    /// are errors.
    var policies: PolicySourceWriter?

    init(outputFolder: String) { self.outputFolder = outputFolder }

    mutating func id() -> String {
      defer { nextID += 1 }
      return "z\(nextID)"
    }

    mutating func write(document: MappingDocument, plan: MigrationPlan, models: MappingCompiler.Models) -> String {
      let modelID = id()
      var entityIDs: [String] = []
      let compiledByName = Dictionary(plan.entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      for (number, e) in document.entityMappings.enumerated() {
        let name = e.name?.value ?? MappingCompiler.defaultName(e)
        guard let compiled = compiledByName[name] else { continue }
        entityIDs.append(entityMapping(e, compiled, number: number + 1, modelID: modelID, models: models))
      }
      var model = "    <object type=\"XDDEVMAPPINGMODEL\" id=\"\(modelID)\">\n"
      model += string("sourcemodelpath", modelPath(models.source))
      model += binary("sourcemodeldata", ModelSnapshotWriter.write(models.source))
      model += string("destinationmodelpath", modelPath(models.destination))
      model += binary("destinationmodeldata", ModelSnapshotWriter.write(models.destination))
      model += relationship("entitymappings", "0/0", "XDDEVENTITYMAPPING", entityIDs)
      model += "    </object>\n"
      objects.insert(model, at: 0)
      var out =
        "<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n<database>\n"
      out += "    <databaseInfo>\n        <version>134481920</version>\n"
      out += "        <UUID>\(uuid(of: objects.joined()))</UUID>\n        <nextObjectID>\(nextID)</nextObjectID>\n"
      out += XcodeExport.metadata
      out += "    </databaseInfo>\n"
      out += objects.joined()
      out += "</database>"
      return out
    }

    /// The store UUID: derived from the content, so the same mapping gives the same file.
    func uuid(of text: String) -> String {
      let h = Array(SHA256.hash(data: Data(text.utf8)))
      var b = Array(h[0..<16])
      b[6] = b[6] & 0x0F | 0x50
      b[8] = b[8] & 0x3F | 0x80
      let hex = b.map { String($0, radix: 16, uppercase: true).leftPadded(2) }.joined()
      let c = Array(hex)
      return [String(c[0..<8]), String(c[8..<12]), String(c[12..<16]), String(c[16..<20]), String(c[20..<32])].joined(
        separator: "-")
    }

    func modelPath(_ m: ObjectModel) -> String {
      guard var p = m.path else { return (m.versionName ?? "Model") + ".xcdatamodel" }
      if p.hasSuffix("/contents") { p.removeLast("/contents".count) }
      return PathText.relative(PathText.absolute(p), from: outputFolder)
    }

    mutating func entityMapping(
      _ e: EntityMappingElement, _ compiled: EntityMapping, number: Int, modelID: String, models: MappingCompiler.Models
    ) -> String {
      let me = id()
      var body = ""
      if let p = devicePolicy(e, compiled) ?? compiled.policyName { body += string("migrationpolicyclassname", p) }
      if let s = compiled.sourceEntity { body += string("sourcename", s) }
      body += string(
        "mappingtypename", e.type.map { $0.value.prefix(1).uppercased() + $0.value.dropFirst() } ?? "Undefined")
      body += "        <attribute name=\"mappingnumber\" type=\"int16\">\(number)</attribute>\n"
      if let d = compiled.destinationEntity { body += string("destinationname", d) }
      if let n = e.name?.value, n != MappingCompiler.defaultName(e) { body += string("name", n) }
      body += "        <attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>\n"
      if let filter = sourceFilter(e, compiled) { body += string("sourcefilterpredicatestring", filter) }
      if !compiled.userInfo.entries.isEmpty {
        body += binary("userinfodata", ExpressionArchiveWriter.archive(compiled.userInfo))
      }
      if let f = e.forEach {
        diagnostics.append(
          .error(
            "xcmap-export-unsupported",
            "<forEach> has no counterpart in Xcode's mapping models; \(compiled.name) cannot be exported",
            at: f.location))
      }
      var attributeIDs: [String] = []
      var relationshipIDs: [String] = []
      if let destination = compiled.destinationEntity, let entity = models.destination.entity(named: destination) {
        let explicitAttributes = Set(e.attributes.map(\.name.value))
        let explicitRelationships = Set(e.relationships.map(\.name.value))
        let all = models.destination.allAttributes(of: entity)
        for a in all where !a.isTransient && !a.isDerived {
          let mapping = compiled.attributeMappings.first { $0.name == a.name }
          let pid = id()
          attributeIDs.append(pid)
          var o = "    <object type=\"XDDEVATTRIBUTEMAPPING\" id=\"\(pid)\">\n"
          if explicitAttributes.contains(a.name), let x = mapping?.valueExpression?.expression {
            refuseVariableKeys(
              x, of: a.name, in: compiled.name, at: e.attributes.first { $0.name.value == a.name }?.location)
            o += binary("valueexpressiondata", ExpressionArchiveWriter.archive(x))
          }
          o += string("name", a.name)
          o += relationship("entitymapping", "1/1", "XDDEVENTITYMAPPING", [me])
          o += "    </object>\n"
          objects.append(o)
        }
        for r in models.destination.allRelationships(of: entity) where !r.isTransient {
          let mapping = compiled.relationshipMappings.first { $0.name == r.name }
          let pid = id()
          relationshipIDs.append(pid)
          var o = "    <object type=\"XDDEVRELATIONSHIPMAPPING\" id=\"\(pid)\">\n"
          o += "        <attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>\n"
          o += string("name", r.name)
          if explicitRelationships.contains(r.name), let x = mapping?.valueExpression?.expression {
            if let (name, keyPath) = Self.keyPathAndMapping(x) {
              o += string("sourcekeypath", keyPath)
              o += string("sourcemappingname", name)
            } else {
              refuseVariableKeys(
                x, of: r.name, in: compiled.name, at: e.relationships.first { $0.name.value == r.name }?.location)
              o += binary("valueexpressiondata", ExpressionArchiveWriter.archive(x))
            }
          }
          o += relationship("entitymapping", "1/1", "XDDEVENTITYMAPPING", [me])
          o += "    </object>\n"
          objects.append(o)
        }
      }
      var o = "    <object type=\"XDDEVENTITYMAPPING\" id=\"\(me)\">\n" + body
      o += relationship("mappingmodel", "1/1", "XDDEVMAPPINGMODEL", [modelID])
      o += relationship("attributemappings", "0/0", "XDDEVATTRIBUTEMAPPING", attributeIDs)
      o += relationship("relationshipmappings", "0/0", "XDDEVRELATIONSHIPMAPPING", relationshipIDs)
      o += "    </object>\n"
      objects.append(o)
      return me
    }

    /// An error for a value expression with a variable as a key (`$a.$b`), which has no known
    /// archived form.
    mutating func refuseVariableKeys(
      _ x: MapRuntime.Expression, of property: String, in mapping: String, at location: SourceLocation?
    ) {
      guard x.hasVariableKey else { return }
      diagnostics.append(
        .error(
          "xcmap-export-unsupported",
          "the value expression of \(property) in \(mapping) uses a variable as a key (\(x)); Xcode's archived form of such a key path is not known, so it cannot be exported",
          at: location))
    }

    /// The policy class that gives the device the functions of mapc's library this mapping
    /// calls, when it calls any and `policies` is being written; otherwise each call the device
    /// lacks is an error (`xcmap-export-device-function`) naming the function and the option.
    mutating func devicePolicy(_ e: EntityMappingElement, _ compiled: EntityMapping) -> String? {
      let uses = DeviceFunctionScan.uses(
        in: e, implemented: DeviceFunctionScan.declaredSelectors(ofPolicy: compiled.policyName))
      guard !uses.isEmpty else { return nil }
      var selectors: Set<String> = []
      for use in uses {
        if use.kind == .entityPolicy && policies != nil {
          selectors.insert(use.name)
          continue
        }
        let remedy =
          use.kind == .builtin
          ? use.advice
          : "\(use.advice), or give --policy-source FILE.swift to write a policy class that implements it for the app"
        diagnostics.append(
          .error(
            "xcmap-export-device-function",
            "\(use.spelling) in \(compiled.name) is mapc's function, not Core Data's: on the device the migration would stop with \(use.kind == .builtin ? "an unknown-function exception" : "\"unrecognized selector\"") unless the app implements it; \(remedy)",
            at: use.location))
      }
      guard !selectors.isEmpty else { return nil }
      if let base = compiled.policyName, !base.isEmpty, !PolicySourceWriter.isTypeName(base) {
        // The generated class extends it in Swift code: only a type name can go there.
        diagnostics.append(
          .error(
            "xcmap-export-unsupported",
            "the policy class of \(compiled.name), '\(base)', is not a Swift type name, so --policy-source cannot write a class that extends it",
            at: uses[0].location))
        return nil
      }
      return policies?.policyClass(base: compiled.policyName, selectors: selectors)
    }

    /// The filter predicate of a mapping: `<filter>`, or the predicate string of a source
    /// expression that is the default fetch of the source entity. Other source expressions
    /// cannot be written in Xcode's format.
    mutating func sourceFilter(_ e: EntityMappingElement, _ compiled: EntityMapping) -> String? {
      if let f = e.filter { return f.text.trimmedXMLSpace }
      guard let s = e.sourceExpression, let x = compiled.sourceExpression?.expression else { return nil }
      if case .fetch(let request, _, false) = x.kind,
        case .selector(let target, "fetchRequestForSourceEntityNamed:predicateString:", let args) = request.kind,
        target.kind == .variable("manager"), args.count == 2,
        case .constant(.string(let entity)) = args[0].kind, entity == compiled.sourceEntity,
        case .constant(.string(let predicate)) = args[1].kind
      {
        return predicate.trimmedXMLSpace == "TRUEPREDICATE" ? nil : predicate
      }
      diagnostics.append(
        .error(
          "xcmap-export-unsupported",
          "Xcode's mapping models hold only the default source fetch with a filter predicate; this <sourceExpression> cannot be exported (write it as <filter>)",
          at: s.location))
      return nil
    }

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NAME", $source…)`
    /// as Xcode's key path and mapping name fields.
    static func keyPathAndMapping(_ x: MapRuntime.Expression) -> (String, String)? {
      guard case .selector(let target, XcodeMappingDocument.relationshipSelector, let args) = x.kind,
        target.kind == .variable("manager"), args.count == 2, case .constant(.string(let name)) = args[0].kind
      else { return nil }
      switch args[1].kind {
      case .variable("source"): return (name, "$source")
      case .keyPath(let base, _) where base.kind == .variable("source"):
        return (name, args[1].description)
      default: return nil
      }
    }

    func string(_ name: String, _ value: String) -> String {
      "        <attribute name=\"\(name)\" type=\"string\">\(Self.escape(value))</attribute>\n"
    }

    func binary(_ name: String, _ bytes: [UInt8]) -> String {
      let b64 = Data(bytes).base64EncodedString()
      var lines: [Substring] = []
      var rest = Substring(b64)
      while !rest.isEmpty {
        lines.append(rest.prefix(76))
        rest = rest.dropFirst(76)
      }
      return "        <attribute name=\"\(name)\" type=\"binary\">\(lines.joined(separator: "\n"))\n</attribute>\n"
    }

    func relationship(_ name: String, _ type: String, _ destination: String, _ ids: [String]) -> String {
      let refs = ids.isEmpty ? "" : " idrefs=\"\(ids.joined(separator: " "))\""
      return
        "        <relationship name=\"\(name)\" type=\"\(type)\" destination=\"\(destination)\"\(refs)></relationship>\n"
    }

    /// Xcode's escaping of string values: `<` (and `\`) as byte-swapped `\u` escapes, then XML's
    /// (`&`, `>`, CR and the invisible characters as references).
    static func escape(_ s: String) -> String { XMLEscaping.content(XcodeStoreDocument.escape(s)) }
  }
}

extension String {
  fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
