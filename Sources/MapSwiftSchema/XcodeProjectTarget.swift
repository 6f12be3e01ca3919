import Foundation
import MapArchives
import MapRuntime

/// The Swift files an Xcode project's target compiles, read from its `project.pbxproj`
/// (Specs/swiftdata-schema.md §1): the `.swift` files of the target's Sources build phase,
/// each file's place found through the groups that hold it, and the `.swift` files of the
/// folders the target synchronizes with the file system (Xcode 16), less the files an exception
/// set takes out of the target.
enum XcodeProjectTarget {
  /// The largest `project.pbxproj` read.
  static let maximumBytes = 64 << 20

  static func error(_ message: String, file: String, line: Int? = nil, column: Int? = nil) -> Diagnostic {
    let location = line.map { MapRuntime.SourceLocation(file: file, line: $0, column: column ?? 1) }
    return Diagnostic(.error, id: "swift-xcode-project", message, at: location, file: file)
  }

  /// The files of `target` (the only target when nil and the project has one) of the project
  /// at `project` (the `.xcodeproj` folder), sorted by path.
  static func files(project: String, target: String?) throws(Diagnostic) -> [String] {
    let trimmed = project.hasSuffix("/") ? String(project.dropLast()) : project
    let pbxproj = trimmed + "/project.pbxproj"
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: pbxproj),
      attributes[.type] as? FileAttributeType == .typeRegular
    else { throw error("the Xcode project has no project.pbxproj file", file: trimmed) }
    guard (attributes[.size] as? Int ?? 0) <= maximumBytes,
      let data = FileManager.default.contents(atPath: pbxproj)
    else { throw error("project.pbxproj cannot be read (or is larger than \(maximumBytes) bytes)", file: pbxproj) }
    let root: PropertyListValue
    do {
      root = try TextPropertyListReader.read(Array(data))
    } catch {
      throw Self.error(
        "project.pbxproj is no property list: \(error.message)", file: pbxproj, line: error.line,
        column: error.column)
    }
    guard case .dictionary(let objectEntries)? = root["objects"], let rootID = root["rootObject"]?.stringValue,
      let projectObject = root["objects"]?[rootID]
    else { throw error("project.pbxproj has no objects or no rootObject", file: pbxproj) }
    var objects: [String: PropertyListValue] = [:]
    for entry in objectEntries { objects[entry.key] = entry.value }
    let targets = (projectObject["targets"]?.arrayValue ?? []).compactMap { $0.stringValue }.compactMap { id in
      objects[id].map { (id: id, value: $0) }
    }
    let names = targets.compactMap { $0.value["name"]?.stringValue }
    let chosen: (id: String, value: PropertyListValue)
    if let target {
      guard let found = targets.first(where: { $0.value["name"]?.stringValue == target }) else {
        throw error(
          "the project has no target '\(target)' (targets: \(names.map { "'\($0)'" }.joined(separator: ", ")))",
          file: pbxproj)
      }
      chosen = found
    } else {
      guard targets.count == 1 else {
        throw error(
          "the project has \(targets.count) targets (\(names.map { "'\($0)'" }.joined(separator: ", "))): name one with --xcode-target",
          file: pbxproj)
      }
      chosen = targets[0]
    }
    // Each object's parent group, to find where a file is.
    var parent: [String: String] = [:]
    for (id, object) in objects.sorted(by: { $0.key < $1.key }) {
      for child in object["children"]?.arrayValue ?? [] {
        if let c = child.stringValue, parent[c] == nil { parent[c] = id }
      }
    }
    let projectFolder = (PathText.folder(of: trimmed) as NSString).appendingPathComponent(
      projectObject["projectDirPath"]?.stringValue ?? "")
    func place(_ id: String, depth: Int = 0) -> String? {
      guard depth < 64, let object = objects[id] else { return nil }
      let path = object["path"]?.stringValue ?? ""
      switch object["sourceTree"]?.stringValue ?? "<group>" {
      case "<absolute>": return path
      case "SOURCE_ROOT": return (projectFolder as NSString).appendingPathComponent(path)
      case "<group>":
        let base = parent[id].flatMap { place($0, depth: depth + 1) } ?? projectFolder
        return path.isEmpty ? base : (base as NSString).appendingPathComponent(path)
      default: return nil
      }
    }
    var result: [String] = []
    for phase in chosen.value["buildPhases"]?.arrayValue ?? [] {
      guard let p = phase.stringValue.flatMap({ objects[$0] }), p["isa"]?.stringValue == "PBXSourcesBuildPhase"
      else { continue }
      for file in p["files"]?.arrayValue ?? [] {
        guard let reference = file.stringValue.flatMap({ objects[$0]?["fileRef"]?.stringValue }),
          let path = place(reference), path.hasSuffix(".swift")
        else { continue }
        result.append(path)
      }
    }
    for group in chosen.value["fileSystemSynchronizedGroups"]?.arrayValue ?? [] {
      guard let id = group.stringValue, let folder = place(id) else { continue }
      var left: Set<String> = []
      for e in objects[id]?["exceptions"]?.arrayValue ?? [] {
        guard let set = e.stringValue.flatMap({ objects[$0] }), set["target"]?.stringValue == chosen.id else {
          continue
        }
        for m in set["membershipExceptions"]?.arrayValue ?? [] { if let s = m.stringValue { left.insert(s) } }
      }
      let found = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".swift") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
      result += found.filter { !left.contains($0) }.map { (folder as NSString).appendingPathComponent($0) }
    }
    for path in result where !FileManager.default.fileExists(atPath: path) {
      throw error("the target's file \(path) does not exist", file: pbxproj)
    }
    return Array(Set(result)).sorted()
  }
}
