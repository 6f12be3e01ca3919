import ArgumentParser
import MapRuntime
import MapcKit

extension OutputTarget {
  /// Refuses (exit 64, usage error) an output that would write over an input or another output,
  /// or that is the wrong kind of file (`OutputTarget.clash`): one error line, `notes` for the
  /// clash, and "nothing was written". Every command that writes a file calls this before it
  /// reads anything but the paths, and again when reading a file names more inputs (the models a
  /// mapping names).
  func refuseClash(notes: (Clash) -> [String] = { _ in [] }) throws {
    guard let clash = clash() else { return }
    Console.error(clash.message, id: clash.id)
    for note in notes(clash) { Console.note(note) }
    Console.note("nothing was written")
    throw ExitCode(.usage)
  }
}
