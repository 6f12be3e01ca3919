/// ISO 8601 UTC text of a date (seconds since 2001-01-01T00:00:00Z) for messages and
/// `description`; the store codec's `ISO8601DateCodec` does the work.
package enum ISO8601 {
  package static func format(_ t: Double) -> String {
    (try? ISO8601DateCodec.string(t)) ?? "\(t) seconds after 2001-01-01"
  }
}
