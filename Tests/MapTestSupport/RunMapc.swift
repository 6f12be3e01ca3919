import Foundation

/// The result of running the `mapc` executable.
public struct MapcResult: Sendable {
  public var exitCode: Int32
  public var stdout: String
  public var stderr: String
}

/// The `mapc` executable built with the tests: beside the test bundle, else
/// `.build/debug/mapc` under the package root. Nil when neither exists.
public let mapcExecutable: URL? = builtExecutable(named: "mapc")

/// An executable of this package built with the tests (`mapc`, the `SongbookSimple` example):
/// beside the test bundle, else in `.build/debug` under the package root. Nil when neither has it.
public func builtExecutable(named name: String) -> URL? {
  var folders: [URL] = []
  for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
    folders.append(bundle.bundleURL.deletingLastPathComponent())
  }
  if let exe = Bundle.main.executableURL { folders.append(exe.deletingLastPathComponent()) }
  folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
  folders.append(SharedPaths.packageRoot.appendingPathComponent(".build/debug"))
  for folder in folders {
    let candidate = folder.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
  }
  return nil
}

/// Why the built `mapc` cannot be run, or nil. `swift test` rebuilds the libraries the tests
/// link but not the `mapc` executable, so run `swift build` before `swift test` (as .ci/ does).
public let mapcExecutableProblem: String? =
  mapcExecutable == nil
  ? "the mapc executable was not found beside the tests or in .build/debug; run `swift build` before `swift test`"
  : nil

/// Runs the built `mapc` with `arguments` (in `directory`, if given) and returns its exit code
/// and output. stdout and stderr go to temporary files, so large outputs cannot block the child.
/// When the executable is missing (`mapcExecutableProblem`) the exit code is 127 with the
/// reason on stderr.
public func runMapc(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) -> MapcResult
{
  guard let executable = mapcExecutable else {
    return MapcResult(exitCode: 127, stdout: "", stderr: mapcExecutableProblem ?? "mapc executable not found")
  }
  return runExecutable(executable, arguments, in: directory, environment: environment)
}

/// Runs a built executable of this package by name (see `builtExecutable(named:)`); exit code
/// 127 with the reason on stderr when it was not built.
public func runBuiltExecutable(_ name: String, _ arguments: [String], in directory: URL? = nil) -> MapcResult {
  guard let executable = builtExecutable(named: name) else {
    return MapcResult(
      exitCode: 127, stdout: "",
      stderr:
        "the \(name) executable was not found beside the tests or in .build/debug; run `swift build` before `swift test`"
    )
  }
  return runExecutable(executable, arguments, in: directory)
}

/// Runs `executable` with `arguments` (and `environment` over this process's); stdout and stderr
/// go to temporary files.
public func runExecutable(
  _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
) -> MapcResult {
  let fm = FileManager.default
  let dir = fm.temporaryDirectory.appendingPathComponent("runMapc-\(UUID().uuidString)")
  do {
    try fm.createDirectory(at: dir, withIntermediateDirectories: true)
  } catch {
    return MapcResult(exitCode: 127, stdout: "", stderr: "cannot create a temporary folder: \(error)")
  }
  defer { try? fm.removeItem(at: dir) }
  let outURL = dir.appendingPathComponent("stdout")
  let errURL = dir.appendingPathComponent("stderr")
  _ = fm.createFile(atPath: outURL.path, contents: nil)
  _ = fm.createFile(atPath: errURL.path, contents: nil)
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
  }
  do {
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
      try? out.close()
      try? err.close()
    }
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
  } catch {
    return MapcResult(exitCode: 127, stdout: "", stderr: "cannot run \(executable.path): \(error)")
  }
  let stdout = (try? Data(contentsOf: outURL)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  let stderr = (try? Data(contentsOf: errURL)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  return MapcResult(exitCode: process.terminationStatus, stdout: stdout, stderr: stderr)
}
