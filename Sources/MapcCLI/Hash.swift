import ArgumentParser

extension MapcCommand {
  struct Hash: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print Core Data's entity version hashes of a model (base64).")

    @Argument(help: "A .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
    var model: String

    func run() throws {
      throw ValidationError("not implemented yet")
    }
  }
}
