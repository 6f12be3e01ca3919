/// A Core Data user-info dictionary, kept in document order.
///
/// Xcode writes user info as `<userInfo><entry key="…" value="…"/></userInfo>`; keys are strings
/// and so are values. Document order is kept so that plans and dumps are deterministic.
public struct UserInfo: Sendable, Hashable, Codable {
  public struct Entry: Sendable, Hashable, Codable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  public var entries: [Entry]

  public init(_ entries: [Entry] = []) { self.entries = entries }

  public var isEmpty: Bool { entries.isEmpty }

  /// The value of the last entry with this key (a later entry overrides an earlier one).
  public subscript(key: String) -> String? {
    entries.last(where: { $0.key == key })?.value
  }
}
