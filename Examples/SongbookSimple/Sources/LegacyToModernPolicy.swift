import MapRuntime

/// The policy of `LegacySongToSong`: skips songs marked deleted, splits the comma-separated
/// `tags` string into shared `Tag` objects, creates one `Artist` per distinct artist name, and
/// refuses two songs with the same slug. Answers two functions for the mapping's expressions:
/// `slugForTitle:artist:` and `secondsFromDuration:`.
final class LegacyToModernPolicy: EntityMigrationPolicy, @unchecked Sendable {
  /// Tags made so far, by name: each name becomes one Tag, shared by its songs.
  private var tagsByName: [String: ObjectRef] = [:]

  override class var selectors: [String] { ["slugForTitle:artist:", "secondsFromDuration:"] }

  // MARK: Functions for FUNCTION($entityPolicy, …)

  override func perform(selector: String, arguments: [Value], manager: MigrationManager) throws -> Value? {
    switch selector {
    case "slugForTitle:artist:":
      // FUNCTION($entityPolicy, "slugForTitle:artist:", $source.title, $source.artist)
      let title = Self.slug(manager.string(arguments[0]) ?? "Untitled")
      let artist = manager.string(arguments[1]).map(Self.slug) ?? ""
      let base = title.isEmpty ? "untitled" : title
      return Value(artist.isEmpty ? base : base + "-" + artist)
    case "secondsFromDuration:":
      // "3:59" → 239; nil stays nil; anything else is an error that names the song.
      guard let text = manager.string(arguments[0]) else { return .null }
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]),
        minutes >= 0, (0..<60).contains(seconds)
      else {
        throw manager.error(
          "duration \"\(text)\" is not minutes:seconds", about: manager.currentFrame?.source,
          code: "songbook-duration")
      }
      return Value(minutes * 60 + seconds)
    default:
      return nil  // not ours: the built-in library answers dateFromString:format:, trim:, …
    }
  }

  // MARK: Pass 1

  override func createDestinationInstances(
    forSource source: ObjectRef?, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    guard let source else { return }
    // Skip deleted songs, and tell LibraryPolicy how many there were.
    if try manager.sourceValue(forKeyPath: "deleted", of: source).boolValue == true {
      manager.userInfo["skippedSongs"] = (manager.userInfo["skippedSongs"] as? Int ?? 0) + 1
      return
    }
    // The Song itself, from the mapping's attribute expressions.
    try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
    guard let song = manager.destinationInstances(forSource: source).last else { return }

    // One legacy string becomes several Tag objects, shared between songs.
    let text = manager.string(try manager.sourceValue(forKeyPath: "tags", of: source)) ?? ""
    var names: [String] = []
    for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = piece.trimmingCharacters(in: .whitespaces).lowercased()
      if !name.isEmpty && !names.contains(name) { names.append(name) }
    }
    for name in names {
      let tag: ObjectRef
      if let known = tagsByName[name] {
        tag = known
      } else {
        tag = try manager.createDestinationInstance(entityNamed: "Tag")
        try manager.setDestinationValue(Value(name), forKey: "name", of: tag)
        tagsByName[name] = tag
      }
      // Adds to Song.tags; the inverse Tag.songs follows.
      try manager.setDestinationObjects([tag], forKey: "tags", of: song)
    }
  }

  /// Once every song exists: one Artist per distinct artist name, in song order.
  override func endInstanceCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {
    var artists: [String: ObjectRef] = [:]
    for source in try manager.sourceInstances(ofEntity: "LegacySong") {
      let name =
        manager.string(try manager.sourceValue(forKeyPath: "artist", of: source))?
        .trimmingCharacters(in: .whitespaces) ?? ""
      guard !name.isEmpty else { continue }
      for song in manager.destinationInstances(forSource: source) {
        let artist: ObjectRef
        if let known = artists[name] {
          artist = known
        } else {
          artist = try manager.createDestinationInstance(entityNamed: "Artist")
          try manager.setDestinationValue(Value(name), forKey: "name", of: artist)
          artists[name] = artist
        }
        try manager.setDestinationValue(.destinationObject(artist), forKey: "artist", of: song)
      }
    }
  }

  // MARK: Validation

  /// Slugs name files in the new app, so two songs must not share one.
  override func performCustomValidation(_ mapping: EntityMapping, manager: MigrationManager) throws {
    var firstWithSlug: [String: ObjectRef] = [:]
    var problems: [MigrationError] = []
    for song in try manager.destinationInstances(ofEntity: "Song") {
      guard let slug = manager.string(try manager.destinationValue(forKeyPath: "slug", of: song)) else { continue }
      if let first = firstWithSlug[slug] {
        problems.append(
          manager.error(
            "slug \"\(slug)\" is already used by \(manager.destinationID(first))",
            about: .destinationObject(song), code: "songbook-duplicate-slug"))
      } else {
        firstWithSlug[slug] = song
      }
    }
    if !problems.isEmpty { throw MigrationFailure(problems) }
  }

  /// Lowercase ASCII letters and digits; accents dropped (é → e); other runs become "-".
  static func slug(_ text: String) -> String {
    var out = ""
    var pending = false
    for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
      if scalar.properties.generalCategory == .nonspacingMark { continue }
      let lower = Character(scalar).lowercased()
      if lower.count == 1, let c = lower.unicodeScalars.first, c.isASCII,
        ("a"..."z").contains(c) || ("0"..."9").contains(c)
      {
        if pending && !out.isEmpty { out.append("-") }
        out.unicodeScalars.append(c)
        pending = false
      } else {
        pending = true
      }
    }
    return out
  }
}
