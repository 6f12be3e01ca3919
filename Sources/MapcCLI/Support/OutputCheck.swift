import ArgumentParser
import MapRuntime

/// Refuses (exit 64, usage error) an output path that is not safe to replace: see
/// `OutputTarget.problem`. Every command that writes a file calls this first.
func checkOutput(_ path: String, option: String, inputs: [String?], isFolder: Bool = false) throws {
  if let problem = OutputTarget.problem(path, option: option, inputs: inputs.compactMap { $0 }, isFolder: isFolder) {
    throw ValidationError(problem)
  }
}
