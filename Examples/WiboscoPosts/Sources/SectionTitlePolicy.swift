import MapRuntime

/// The policy of `PostToSection` in `Mapping/Post2ToPost3.xml`. It answers one function,
/// `FUNCTION($entityPolicy, "sectionTitleFromBody:", $source.content)`: the body's first four
/// characters followed by `...` (`"Test body"` → `"Test..."`), nil for a nil body. That is the
/// title the app's own policy gives the one section it makes from a version 2 post; mapc's
/// expression language can test prefixes but not take one, so this part is Swift.
final class SectionTitlePolicy: EntityMigrationPolicy, @unchecked Sendable {
  override class var selectors: [String] { ["sectionTitleFromBody:"] }

  override func perform(selector: String, arguments: [Value], manager: MigrationManager) throws -> Value? {
    guard selector == "sectionTitleFromBody:" else { return nil }  // the built-in library answers the rest
    guard let body = manager.string(arguments[0]) else { return .null }
    // Characters (grapheme clusters), as Swift's String.prefix counts them in the app.
    return Value(String(body.prefix(4)) + "...")
  }
}
