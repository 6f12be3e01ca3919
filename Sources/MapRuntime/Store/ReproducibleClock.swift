import Foundation

/// The `now()` of a migration, fixed so runs are reproducible.
public enum ReproducibleClock {
  /// `SOURCE_DATE_EPOCH` (Unix seconds) when set, else 2001-01-01T00:00:00Z; in seconds since
  /// 2001-01-01T00:00:00Z, as `MigrationRun.Options.now` takes it.
  public static func now() -> Double {
    if let s = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let v = Double(s) {
      return v - 978_307_200
    }
    return 0
  }
}
