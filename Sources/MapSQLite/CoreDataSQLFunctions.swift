internal import CSQLite
import Foundation
import MapRuntime

/// The SQL functions Core Data registers on its own connection, which its triggers for derived
/// attributes call (`Specs/sqlite-store.md` §9). mapc registers them on a connection that writes
/// such a store, so that the triggers and Core Data's statements that fill the values run:
/// - `NSCoreDataNow()`: the run's fixed time (`ReproducibleClock`), seconds since 2001;
/// - `NSCoreDataToUpper(x)`, `NSCoreDataToLower(x)`: the text in upper or lower case;
/// - `NSCoreDataCanonical(x)`: the text without case or diacritics;
/// - `NSCoreDataDATriggerUpdatedAffectedObjectValue`,
///   `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue` (5 arguments): Core Data's notices
///   to its managed object contexts; NULL here.
/// NULL in, NULL out; a value that is not text is taken as SQLite's text of it.
extension SQLiteDatabase {
  func registerCoreDataFunctions(now: Double) throws(Failure) {
    let box = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    box.initialize(to: now)
    try add(
      "NSCoreDataNow", arguments: 0, deterministic: false, userData: box,
      destroy: { p in
        p?.assumingMemoryBound(to: Double.self).deallocate()
      }
    ) { context, _, _ in
      let value = sqlite3_user_data(context)!.assumingMemoryBound(to: Double.self).pointee
      sqlite3_result_double(context, value)
    }
    try add("NSCoreDataToUpper", arguments: 1) { context, _, argv in
      SQLiteDatabase.resultText(context, argv) { $0.uppercased() }
    }
    try add("NSCoreDataToLower", arguments: 1) { context, _, argv in
      SQLiteDatabase.resultText(context, argv) { $0.lowercased() }
    }
    try add("NSCoreDataCanonical", arguments: 1) { context, _, argv in
      SQLiteDatabase.resultText(context, argv) {
        $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      }
    }
    for name in [
      "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ] {
      try add(name, arguments: 5, deterministic: false) { context, _, _ in sqlite3_result_null(context) }
    }
  }

  private func add(
    _ name: String, arguments: Int32, deterministic: Bool = true, userData: UnsafeMutableRawPointer? = nil,
    destroy: (@convention(c) (UnsafeMutableRawPointer?) -> Void)? = nil,
    _ body: @escaping @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
  ) throws(Failure) {
    let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
    let rc = sqlite3_create_function_v2(handle, name, arguments, flags, userData, body, nil, nil, destroy)
    // On failure SQLite itself calls `destroy` on `userData`.
    guard rc == SQLITE_OK else { throw Failure(message: "cannot register \(name): \(lastError)") }
  }

  private static func resultText(
    _ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?, _ transform: (String) -> String
  ) {
    guard let value = argv?[0], sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
      sqlite3_result_null(context)
      return
    }
    let count = Int(sqlite3_value_bytes(value))
    let input = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    let output = Array(transform(input).utf8)
    output.withUnsafeBytes { b in
      let bytes = b.baseAddress?.assumingMemoryBound(to: CChar.self)
      sqlite3_result_text64(context, bytes, sqlite3_uint64(b.count), csqlite_transient(), UInt8(SQLITE_UTF8))
    }
  }
}
