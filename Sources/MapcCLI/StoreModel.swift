import ArgumentParser
import Foundation
import MapModelReader
import MapRuntime
import MapSQLite
import MapcKit

extension MapcCommand {
  struct StoreModel: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "model",
      abstract: "Write the model a Core Data SQLite store carries (Z_MODELCACHE) as an Xcode model.",
      discussion: """
        Core Data (and SwiftData) keep the model that wrote a store in the store itself. This \
        writes it as OUT.xcdatamodel/contents, or as a bundle OUT.xcdatamodeld holding that \
        one version, and prints on standard error what of the archive an Xcode model \
        cannot hold (a fetched property's predicate, a derived attribute's expression). The store is only read. Exit status: \
        0 written, 1 the model cannot be written, 2 the store cannot be read or carries no \
        model (nothing written), 64 usage error or an output that would write over an input.
        """)

    @Argument(help: "The Core Data SQLite store.")
    var store: String

    @Option(name: .shortAndLong, help: "The .xcdatamodel (or .xcdatamodeld) folder to write.")
    var output: String

    func validate() throws {
      guard Self.folderName(output) != nil else {
        throw ValidationError("--output must name a .xcdatamodel or .xcdatamodeld folder")
      }
    }

    /// The output without a trailing `/`, and the version name (the folder's base name), or nil
    /// when it is neither kind of model folder.
    static func folderName(_ path: String) -> (path: String, name: String, bundle: Bool)? {
      let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
      let base = (trimmed as NSString).lastPathComponent
      for (suffix, bundle) in [(".xcdatamodeld", true), (".xcdatamodel", false)] where base.hasSuffix(suffix) {
        let name = String(base.dropLast(suffix.count))
        return name.isEmpty ? nil : (trimmed, name, bundle)
      }
      return nil
    }

    func run() throws {
      var files = OutputTarget()
      files.reads(store, as: "store", kind: .store)
      files.writes(output, option: "--output", kind: .folder)
      try files.refuseClash()
      let cached = try CachedModel.read(store: store)
      guard let cached else {
        throw Console.failure(
          MigrationFailure([
            MigrationError(
              "store-no-model-cache",
              "the store carries no model (no Z_MODELCACHE row: Core Data writes one from framework 640, 2011, on); give the model with --model where a command takes one",
              file: store)
          ]), notes: ["nothing was written"])
      }
      let (target, name, bundle) = Self.folderName(output)!
      let text = ModelXMLWriter.contents(cached.model)
      if let why = ModelXMLWriter.unwritable(text) {
        Console.error("\(why): nothing was written", id: "model-unwritable", place: store)
        throw ExitCode(.inputErrors)
      }
      do {
        let folder = bundle ? "\(target)/\(name).xcdatamodel" : target
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try AtomicFileWriter.replaceContents(of: folder + "/contents", with: text)
        if bundle {
          try AtomicFileWriter.replaceContents(of: target + "/.xccurrentversion", with: Self.currentVersion(name))
        }
      } catch {
        throw Console.writeFailure("model", path: output, error: error)
      }
      for line in cached.omitted { Console.note("the store's model cache holds \(line), which mapc leaves out") }
      Console.say(
        "mapc: wrote the model \(store) carries (\(cached.model.entities.count) entities) to \(output)")
    }

    static func currentVersion(_ name: String) -> String {
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>_XCCurrentVersionName</key>
      \t<string>\(ModelXMLWriter.escaped(name)).xcdatamodel</string>
      </dict>
      </plist>

      """
    }
  }
}
