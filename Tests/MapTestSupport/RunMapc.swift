import Foundation

/// The result of running the `mapc` executable.
public struct MapcResult: Sendable {
  public var exitCode: Int32
  public var stdout: String
  public var stderr: String
}

/// Where the built `mapc` executable is: next to the test bundle (the build products folder),
/// or in `.build/debug` of the package. Nil when it has not been built.
public let mapcExecutable: URL? = {
  let fm = FileManager.default
  var candidates: [URL] = []
  let bundle = Bundle.main.bundleURL
  candidates.append(bundle.appendingPathComponent("mapc"))
  candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("mapc"))
  for test in Bundle.allBundles where test.bundleURL.pathExtension == "xctest" {
    candidates.append(test.bundleURL.deletingLastPathComponent().appendingPathComponent("mapc"))
  }
  candidates.append(SharedPaths.packageRoot.appendingPathComponent(".build/debug/mapc"))
  return candidates.first { url in
    var isDirectory: ObjCBool = false
    return fm.isExecutableFile(atPath: url.path)
      && fm.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
  }
}()

/// Runs `mapc` with `arguments` (in `directory`, if given) and collects its exit code and output.
/// Output goes through temporary files, so a large output cannot block the child.
public func runMapc(_ arguments: [String], in directory: URL? = nil) throws -> MapcResult {
  guard let executable = mapcExecutable else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "mapc executable not built"])
  }
  let fm = FileManager.default
  let scratch = fm.temporaryDirectory.appendingPathComponent("mapc-run-\(UUID().uuidString)")
  try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
  defer { try? fm.removeItem(at: scratch) }
  let outURL = scratch.appendingPathComponent("stdout")
  let errURL = scratch.appendingPathComponent("stderr")
  _ = fm.createFile(atPath: outURL.path, contents: nil)
  _ = fm.createFile(atPath: errURL.path, contents: nil)
  let out = try FileHandle(forWritingTo: outURL)
  let err = try FileHandle(forWritingTo: errURL)

  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  try out.close()
  try err.close()
  return MapcResult(
    exitCode: process.terminationStatus,
    stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
    stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}
