import Foundation
import MapRuntime

/// The external data files of a store, for a copy of it made by SQLite (`StoreRepair`): every
/// file its rows name that is there, to be written beside the copy under the same name, and the
/// names of the missing ones (Specs/sqlite-store.md §7).
enum ExternalCopy {
  static func files(ofStore path: String) -> ExternalFilesWritten? {
    guard let names = ExternalData.referencedFiles(path), !names.isEmpty else { return nil }
    let folder = ExternalData.dataFolder(ofStore: path)
    let read = ExternalFilesRead(folder: folder)
    var missing: [String] = []
    for name in names.sorted() {
      if let data = FileManager.default.contents(atPath: "\(folder)/\(name)") {
        read.add(name, [UInt8](data))
      } else {
        missing.append(name)
      }
    }
    var written = ExternalFilesWritten(read: read)
    for f in read.files { _ = written.claim(f.bytes) }
    for name in missing { written.carry(name) }
    return written
  }
}
