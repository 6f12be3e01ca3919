import Foundation
import Testing

@testable import MapRuntime

/// A scratch folder left by a run killed with SIGKILL (`mapc-chunks-<pid>-<random>`) is removed
/// by the next scratch folder of its name once its process has ended; one whose process is
/// alive, a file of that name, and a folder of another name are kept.
struct ScratchFolderTests {
  @Test func aFolderOfAnEndedProcessIsRemovedAndNoOther() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-stale-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    // A process that has ended: its id names no process (until it is given again).
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = ended.processIdentifier
    let alive = getpid()
    let parent = getppid()
    let names = [
      "mapc-chunks-\(dead)-A", "mapc-chunks-\(parent)-B", "mapc-chain-\(dead)-C", "mapc-chunks-\(alive)-D",
    ]
    for n in names {
      try FileManager.default.createDirectory(at: root.appendingPathComponent(n), withIntermediateDirectories: false)
    }
    try Data("x".utf8).write(to: root.appendingPathComponent("mapc-chunks-\(dead)-file"))
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("mapc-chunks-\(dead)-A/0"), withIntermediateDirectories: false)
    ScratchFolder.removeStale(in: root.path, name: "mapc-chunks")
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
    #expect(
      left == [
        "mapc-chunks-\(parent)-B", "mapc-chain-\(dead)-C", "mapc-chunks-\(alive)-D", "mapc-chunks-\(dead)-file",
      ])
  }

  /// A chain's scratch folder stays registered for removal on a signal while its step's chunks
  /// folder comes and goes (one registered folder at a time let the step's removal forget the
  /// chain's); removed, neither is registered.
  @Test func aStepsFolderDoesNotUnregisterTheChains() throws {
    let chain = try ScratchFolder()
    let chunks = try ScratchFolder(name: "mapc-chunks")
    #expect(Set(TemporaryFiles.registeredFolders).isSuperset(of: [chain.path, chunks.path]))
    chunks.remove()
    #expect(TemporaryFiles.registeredFolders.contains(chain.path))
    #expect(!TemporaryFiles.registeredFolders.contains(chunks.path))
    let next = try ScratchFolder(name: "mapc-chunks")
    #expect(Set(TemporaryFiles.registeredFolders).isSuperset(of: [chain.path, next.path]))
    next.remove()
    chain.remove()
    #expect(!TemporaryFiles.registeredFolders.contains(chain.path))
    #expect(!FileManager.default.fileExists(atPath: chain.path))
  }
}
