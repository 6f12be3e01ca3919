import Foundation

extension Builtins {
  /// `collection[index]` and `objectFrom:withIndex:`: an element by position from 0 (nil out of
  /// range), or a dictionary's entry by key. A nil collection or a nil index raises in
  /// Foundation, and is `run-nil-index` here.
  static func element(of v: Value, at k: Value, _ m: MigrationContext) throws(MigrationError) -> Value {
    switch (v, k) {
    case (.null, _): throw nilIndex(collection: v, index: k, m)
    case (_, .null): throw nilIndex(collection: v, index: k, m)
    case (.transformable(let s), .int(let n)):
      // `$source.answers[$index]`: index the cached parse of the Transformable value.
      guard case .array(let items) = try m.lookInside(s) else { return .null }
      return n >= 0 && n < items.count ? items[Int(n)] : .null
    case (.dictionary(let pairs), .string(let t)):
      let key = m.string(t)
      return pairs.first { $0.0 == key }?.1 ?? .null
    case (.special(.userInfo(let u)), .string(let t)):
      return u[m.string(t)].map { .string(.native($0)) } ?? .null
    case (_, .int(let n)):
      let items = try m.elements(v)
      return n >= 0 && n < items.count ? items[Int(n)] : .null
    default:
      if case .transformable = v, case .string(let t) = k,
        case .dictionary(let pairs) = try m.elements(v).first ?? .null
      {
        let key = m.string(t)
        return pairs.first { $0.0 == key }?.1 ?? .null
      }
      throw MigrationError("run-type-mismatch", "cannot index \(m.describe(v)) with \(m.describe(k))")
    }
  }
}

extension Builtins {
  /// Indexing nil, or indexing with nil (`missing[0]`, `x[missingKey]`): Foundation raises.
  static func nilIndex(collection: Value, index: Value?, _ m: MigrationContext) -> MigrationError {
    let subscript_ = index.map { m.describe($0) } ?? "FIRST, LAST or SIZE"
    let what =
      collection.isNull
      ? "the collection is nil (a missing key or value), indexed with \(subscript_)"
      : "the index is nil, for \(m.describe(collection))"
    return MigrationError("run-nil-index", "cannot index: \(what), as Foundation raises")
  }
}

/// `distanceToLocation:fromLocation:`. Apple calls CLLocation's `distanceFromLocation:`, whose
/// earth model is not documented; mapc uses the haversine formula on a sphere of the IUGG mean
/// radius, which agrees with it to well under 1 %.
enum Geodesy {
  static let earthRadius = 6_371_008.8

  static func distance(_ a: Value, _ b: Value, _ m: MigrationContext) throws(MigrationError) -> Value {
    if a.isNull || b.isNull { return .null }
    let (lat1, lon1) = try coordinates(a, m)
    let (lat2, lon2) = try coordinates(b, m)
    let radians = Double.pi / 180
    let dLat = (lat2 - lat1) * radians
    let dLon = (lon2 - lon1) * radians
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
    return .double(2 * earthRadius * asin(min(1, h.squareRoot())))
  }

  /// Latitude and longitude in degrees of an object with `latitude` and `longitude` keys, or of
  /// a two-number collection `{latitude, longitude}`.
  private static func coordinates(_ v: Value, _ m: MigrationContext) throws(MigrationError) -> (Double, Double) {
    if case .dictionary(let pairs) = v,
      let lat = pairs.first(where: { $0.0 == "latitude" }).flatMap({ m.number($0.1) }),
      let lon = pairs.first(where: { $0.0 == "longitude" }).flatMap({ m.number($0.1) })
    {
      return (lat, lon)
    }
    if case .array(let items) = v, items.count == 2, let lat = m.number(items[0]), let lon = m.number(items[1]) {
      return (lat, lon)
    }
    throw MigrationError(
      "run-type-mismatch",
      "distanceToLocation:fromLocation: needs locations (objects with latitude and longitude, or {latitude, longitude}), got \(m.describe(v))"
    )
  }
}
