import MapRuntime

/// The policy of `AddLibrary` (named `SBLibraryPolicy` in the mapping, as the Objective-C app
/// called it): once the library's songs are set, stores how many there are and how many
/// `LegacyToModernPolicy` skipped.
final class LibraryPolicy: EntityMigrationPolicy, @unchecked Sendable {
  override func createRelationships(
    forDestination destination: ObjectRef, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    // Library.songs from the mapping's FETCH (Song.library follows as its inverse).
    try super.createRelationships(forDestination: destination, mapping: mapping, manager: manager)
    let songs = try manager.destinationValue(forKeyPath: "songs", of: destination).destinationObjects
    try manager.setDestinationValue(Value(songs.count), forKey: "songCount", of: destination)
    let skipped = manager.userInfo["skippedSongs"] as? Int ?? 0
    try manager.setDestinationValue(Value(skipped), forKey: "skippedCount", of: destination)
  }
}
