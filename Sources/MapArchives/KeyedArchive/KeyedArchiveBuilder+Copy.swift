extension KeyedArchiveBuilder {
  /// Adds object `index` of `archive` and every object it refers to, as they are there (class
  /// names and chains, fields in their order, plain objects shared as `object` shares them);
  /// returns its reference. `$null` gives `null`. Refused when the references nest deeper than
  /// `KeyedArchive.maximumDepth`.
  ///
  /// For a value mapc keeps without reading it (a model cache's default value of an app's
  /// class, Specs/sqlite-store.md §7.2): copied into an archive of its own, then back into a
  /// model cache.
  public mutating func copy(_ index: Int, of archive: KeyedArchive) throws(KeyedArchiveError) -> PropertyListValue {
    var copied: [Int: PropertyListValue] = [:]
    return try copy(index, of: archive, copied: &copied, depth: 0)
  }

  private mutating func copy(
    _ index: Int, of archive: KeyedArchive, copied: inout [Int: PropertyListValue], depth: Int
  ) throws(KeyedArchiveError) -> PropertyListValue {
    if let done = copied[index] { return done }
    guard depth < KeyedArchive.maximumDepth else {
      throw KeyedArchiveError("object \(index) nests deeper than \(KeyedArchive.maximumDepth) references")
    }
    guard index >= 0, index < archive.objects.count else {
      throw KeyedArchiveError("object \(index) is past the object table (\(archive.objects.count) objects)")
    }
    let value = archive.objects[index]
    if archive.isNull(.uid(UInt64(index))) { return Self.null }
    guard case .dictionary = value, value["$class"] != nil else {
      let plain = object(try mapped(value, of: archive, copied: &copied, depth: depth))
      copied[index] = plain
      return plain
    }
    let o = try archive.object(index)
    let slot = reserve()
    copied[index] = slot
    var fields: [PropertyListValue.Entry] = []
    for field in o.fields {
      fields.append(.init(field.key, try mapped(field.value, of: archive, copied: &copied, depth: depth)))
    }
    fill(slot, o.className, classes: o.classes, fields: fields)
    return slot
  }

  /// A field's value with each reference in it (nested in arrays and dictionaries too) copied.
  private mutating func mapped(
    _ value: PropertyListValue, of archive: KeyedArchive, copied: inout [Int: PropertyListValue], depth: Int
  ) throws(KeyedArchiveError) -> PropertyListValue {
    switch value {
    case .uid:
      return try copy(try archive.reference(value, "a reference"), of: archive, copied: &copied, depth: depth + 1)
    case .array(let items):
      var result: [PropertyListValue] = []
      for item in items { result.append(try mapped(item, of: archive, copied: &copied, depth: depth)) }
      return .array(result)
    case .dictionary(let entries):
      var result: [PropertyListValue.Entry] = []
      for e in entries { result.append(.init(e.key, try mapped(e.value, of: archive, copied: &copied, depth: depth))) }
      return .dictionary(result)
    default:
      return value
    }
  }
}
