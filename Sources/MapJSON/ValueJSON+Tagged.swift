import MapRuntime

/// The tagged JSON forms `mapc eval` reads in `--object` and `--variables` for values JSON has no
/// type for. Each is an object with exactly one member:
/// - `{"$date": "2001-01-01T00:00:00Z"}` (an ISO 8601 date-time as a JSON store reads it) or
///   `{"$date": 0}` (seconds since 2001-01-01T00:00:00Z, the form of a store's far dates): a date;
/// - `{"$set": [1, 2, 2]}`: a set, its elements de-duplicated (first occurrence kept);
/// - `{"$real": "NaN"}`, `"Infinity"`, `"-Infinity"`: the doubles JSON has no number for, the
///   form results are printed in.
///
/// Any other object is a dictionary, as before.
extension ValueJSON {
  /// `text`'s value with the tagged forms read.
  package static func parseTagged(_ text: String) throws -> Value {
    try tagged(try parse(text))
  }

  /// An error in a tagged form, such as `{"$date": "yesterday"}`.
  package struct TaggedFormError: Error, CustomStringConvertible {
    package var description: String
  }

  private static func tagged(_ value: Value) throws -> Value {
    switch value {
    case .array(let items):
      return .array(try items.map(tagged))
    case .dictionary(let pairs):
      if pairs.count == 1, let form = try taggedForm(pairs[0].0, pairs[0].1) { return form }
      return .dictionary(try pairs.map { ($0.0, try tagged($0.1)) })
    default:
      return value
    }
  }

  private static func taggedForm(_ key: String, _ value: Value) throws -> Value? {
    switch key {
    case "$date":
      switch value {
      case .string(let t):
        let text = ObjectGraph.string(t, input: nil)
        do {
          return .date(try ISO8601DateCodec.parse(text))
        } catch {
          throw TaggedFormError(description: "{\"$date\": …}: \(error.message)")
        }
      case .int(let n): return .date(Double(n))
      case .double(let d): return .date(d)
      default:
        throw TaggedFormError(
          description: "{\"$date\": …} needs an ISO 8601 string such as \"2001-01-01T00:00:00Z\" or seconds since 2001")
      }
    case "$set":
      guard case .array(let items) = value else {
        throw TaggedFormError(description: "{\"$set\": …} needs an array of the set's elements")
      }
      var seen = Set<String>()
      var kept: [Value] = []
      for item in try items.map(tagged) where seen.insert(render(item)).inserted {
        kept.append(item)
      }
      return .array(kept)
    case "$real":
      guard case .string(let t) = value else {
        throw TaggedFormError(description: "{\"$real\": …} needs \"NaN\", \"Infinity\" or \"-Infinity\"")
      }
      switch ObjectGraph.string(t, input: nil) {
      case "NaN": return .double(.nan)
      case "Infinity": return .double(.infinity)
      case "-Infinity": return .double(-.infinity)
      default:
        throw TaggedFormError(description: "{\"$real\": …} needs \"NaN\", \"Infinity\" or \"-Infinity\"")
      }
    default:
      return nil
    }
  }
}
