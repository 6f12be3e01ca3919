import Foundation

/// Values made on first use and kept, by key, for a value that never changes (a model's
/// entities, a layout): whoever asks first makes the value, later askers get the same one.
// @unchecked: the dictionary is read and written only under `lock`.
package final class Memo<Key: Hashable & Sendable, Kept: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Key: Kept] = [:]

  package init() {}

  package func value(_ key: Key, _ make: () -> Kept) -> Kept {
    if let found = lock.withLock({ values[key] }) { return found }
    let made = make()
    return lock.withLock {
      if let earlier = values[key] { return earlier }
      values[key] = made
      return made
    }
  }
}

/// A memo shows no children to reflection: what it keeps is made from its owner's other fields
/// and shared by every copy of the owner, so a deep description of the owner (the plan round
/// trip's oracle) compares the fields and not the memo's lock or which values were asked for.
extension Memo: CustomReflectable {
  package var customMirror: Mirror { Mirror(self, children: [:]) }
}
