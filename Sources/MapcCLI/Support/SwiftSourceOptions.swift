import ArgumentParser
import MapRuntime
import MapSwiftSchema
import MapcKit

/// The options that choose the Swift files of a SwiftData schema and the build they are read
/// as, on every command that takes a model: `--define`/`--undefine` a `#if` condition,
/// `--exclude GLOB`, `--xcode-target NAME`.
struct SwiftSourceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "For a SwiftData schema: a #if condition to hold (DEBUG, os(Linux), canImport(UIKit)); repeatable.",
      valueName: "CONDITION"))
  var define: [String] = []

  @Option(
    help: ArgumentHelp(
      "For a SwiftData schema: a #if condition not to hold (os(iOS), canImport(SwiftData)); repeatable.",
      valueName: "CONDITION"))
  var undefine: [String] = []

  @Option(
    help: ArgumentHelp(
      "For a SwiftData schema: leave out the Swift files this pattern matches (*, ?, **; matched against the path below the folder given, or any part of it); repeatable.",
      valueName: "GLOB"))
  var exclude: [String] = []

  @Option(
    help: ArgumentHelp(
      "For a SwiftData schema given as an Xcode project (.xcodeproj): the target whose Swift files are read (default: the project's only target).",
      valueName: "NAME"))
  var xcodeTarget: String?

  func validate() throws {
    _ = try conditions()
  }

  /// The build conditions with the settings applied, in the order given (`--define` first).
  func conditions() throws -> SwiftBuildConditions {
    var conditions = SwiftBuildConditions()
    for (written, value) in define.map({ ($0, true) }) + undefine.map({ ($0, false) }) {
      if let problem = conditions.set(written, to: value) {
        // The condition is the user's text: control characters escaped (one line, no escapes
        // sent to the terminal).
        throw ValidationError("--\(value ? "define" : "undefine"): \(TerminalText.escaped(problem))")
      }
    }
    return conditions
  }

  /// Whether an option was given (they only apply to Swift source).
  var isUsed: Bool { !define.isEmpty || !undefine.isEmpty || !exclude.isEmpty || xcodeTarget != nil }
}

/// A model as the commands take it: one path (an Xcode model or Swift source), or several
/// Swift paths whose files are read together, with the options of `SwiftSourceOptions`.
struct ModelArgument {
  var paths: [String]
  /// The options as a command parsed them; nil for a model argument made in code, whose Swift
  /// source is read with none (options made in code were never parsed, and reading one traps).
  var swift: SwiftSourceOptions?

  init(_ paths: [String], swift: SwiftSourceOptions? = nil) {
    self.paths = paths
    self.swift = swift
  }

  /// How messages name it: the path, or the paths joined.
  var display: String { paths.joined(separator: ", ") }

  /// The model as MapcKit reads it (the conditions were checked when the options were parsed).
  /// The Swift options are read only for Swift source.
  var source: ModelSource {
    guard paths.count > 1 || ModelSource.isSwiftSource(display) else { return ModelSource(paths) }
    return ModelSource(
      paths, excludes: swift?.exclude ?? [], xcodeTarget: swift?.xcodeTarget,
      conditions: (try? swift?.conditions()) ?? SwiftBuildConditions())
  }

  /// Usage errors: several paths that are not all Swift source, `--xcode-target` without a
  /// project, Swift options with an Xcode model.
  func validate(option: String) throws {
    let swift = paths.map(ModelInput.isSwiftSource)
    if paths.count > 1, let i = swift.firstIndex(of: false) {
      throw ValidationError(
        "several paths for \(option) are read together as one SwiftData schema; \(paths[i]) is no Swift source (.swift files, folders of them, an .xcodeproj)"
      )
    }
    if self.swift?.xcodeTarget != nil && !paths.contains(where: SwiftSourceSelection.isXcodeProject) {
      throw ValidationError("--xcode-target needs an Xcode project (.xcodeproj) as \(option)")
    }
    if self.swift?.isUsed == true && !paths.isEmpty && !swift.contains(true) {
      throw ValidationError(
        "--define, --undefine, --exclude and --xcode-target apply to a SwiftData schema in Swift source, not to \(display)"
      )
    }
  }
}
