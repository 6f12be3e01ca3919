import Foundation
import MapRuntime

/// Finds the model files an Xcode mapping model was made for. Xcode records project-relative
/// paths (`sourcemodelpath`, `destinationmodelpath`), so the path is tried against each folder
/// above the mapping, nearest first; when the project was reorganised since (the recorded folders
/// no longer exist), shorter tails of the path are tried the same way, down to the bundle and
/// version (`Model.xcdatamodeld/Model 2.xcdatamodel`) or the version folder alone.
public enum XcodeModelLocator {
  /// Folders above the mapping that are searched.
  public static let maximumAncestors = 16

  public static func locate(_ recorded: String, mappingPath: String) -> String? {
    let components = recorded.split(separator: "/").map(String.init).filter { !$0.isEmpty && $0 != "." }
    guard let last = components.last, last.hasSuffix(".xcdatamodel") || last.hasSuffix(".xcdatamodeld") else {
      return nil
    }
    let ancestors = folders(above: mappingPath)
    // A path that climbs (`mapc export` writes one when the models are outside the folder
    // holding the mapping model) is only tried whole, from the mapping model's folder.
    if components.contains("..") {
      let candidate = PathText.absolute(ancestors[0] + "/" + components.joined(separator: "/"))
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
      return exists && isDirectory.boolValue ? candidate : nil
    }
    for start in components.indices {
      let tail = components[start...].joined(separator: "/")
      for folder in ancestors {
        let candidate = folder.isEmpty ? tail : folder + "/" + tail
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
          return candidate
        }
      }
    }
    return nil
  }

  /// The folders holding the mapping model folder, nearest first.
  static func folders(above mappingPath: String) -> [String] {
    var path = PathText.absolute(mappingPath)
    if path.hasSuffix("/xcmapping.xml") { path = PathText.folder(of: path) }
    var result: [String] = []
    var folder = PathText.folder(of: path)
    while result.count < maximumAncestors {
      result.append(folder)
      if folder.isEmpty || folder == "/" || folder == "." { break }
      let parent = PathText.folder(of: folder)
      if parent == folder { break }
      folder = parent
    }
    return result
  }
}
