import MapJSONText
import MapRuntime

extension StoreMetadataPeek {
  /// The first bytes a peek reads; it reads eight times more while the text ends before the
  /// metadata does (a store mapc writes has its metadata first), up to the whole file.
  static let firstPeekBytes = 1 << 16

  /// The peek of a JSON store: its `metadata` object, read token by token, from as few of the
  /// file's first bytes as hold it.
  package static func read(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
    var limit = firstPeekBytes
    while true {
      let input: InputBytes
      do {
        input = try InputBytes(
          contentsOf: path, regularFileOnly: true, maxBytes: Limits.storeFileBytes, limit: limit)
      } catch {
        throw MigrationFailure(error, file: path)
      }
      do {
        return try read(input, path: path)
      } catch let e as JSONSyntaxError where input.isPrefix {
        _ = e  // the text may only be cut short: read more
        limit = limit > Int.max / 8 ? Int.max : limit * 8
      } catch let e as JSONSyntaxError {
        throw MigrationFailure([MigrationError(e, file: path, at: e.location(in: input.unsafeBytes, file: path))])
      } catch let e as MigrationFailure {
        throw e
      } catch {
        throw MigrationFailure([MigrationError("store-metadata", "\(error)", file: path)])
      }
    }
  }

  /// The peek of the JSON text in `input`; throws `JSONSyntaxError` or `MigrationFailure`.
  private static func read(_ input: InputBytes, path: String) throws -> StoreMetadataPeek {
    var scanner = JSONScanner(input.unsafeBytes)
    var result = StoreMetadataPeek()
    func fail(_ message: String, at offset: Int) -> MigrationFailure {
      let p = JSONTextPosition(of: offset, in: input.unsafeBytes)
      return MigrationFailure([
        MigrationError("store-metadata", message, at: SourceLocation(file: path, line: p.line, column: p.column))
      ])
    }
    guard try scanner.next().kind == .beginObject else { throw fail("a store is a JSON object", at: 0) }
    while let key = try scanner.nextKey() {
      guard scanner.decodeString(key) == "metadata" else {
        _ = try scanner.skipValue()
        continue
      }
      let open = try scanner.next()
      guard open.kind == .beginObject else { throw fail("\"metadata\" must be an object", at: open.start) }
      while let k = try scanner.nextKey() {
        switch scanner.decodeString(k) {
        case "entityVersionHashes":
          let o = try scanner.next()
          guard o.kind == .beginObject else {
            throw fail("metadata.entityVersionHashes must be an object", at: o.start)
          }
          var hashes: [String: String] = [:]
          while let entity = try scanner.nextKey() {
            let h = try scanner.next()
            guard h.kind == .string else {
              throw fail("metadata.entityVersionHashes values must be strings", at: h.start)
            }
            hashes[scanner.decodeString(entity)] = scanner.decodeString(h)
          }
          result.entityVersionHashes = hashes
        case migrationsKey:
          let first = try scanner.next()
          guard first.kind == .beginArray, case .array(let items) = try value(first, &scanner, fail) else {
            throw fail(
              "metadata.\(migrationsKey) must be an array (mapc migrate records its steps there)", at: first.start)
          }
          result.migrations = items
        default:
          _ = try scanner.skipValue()
        }
      }
      return result  // what follows the metadata is not needed
    }
    return result
  }

  /// A value of strings, arrays and objects (the shapes mapc writes).
  private static func value(
    _ first: JSONToken, _ scanner: inout JSONScanner, _ fail: (String, Int) -> MigrationFailure
  ) throws -> MetadataValue {
    switch first.kind {
    case .string: return .string(scanner.decodeString(first))
    case .beginArray:
      var items: [MetadataValue] = []
      while true {
        let t = try scanner.next()
        if t.kind == .endArray { return .array(items) }
        items.append(try value(t, &scanner, fail))
      }
    case .beginObject:
      var fields: [MetadataValue.Field] = []
      while let k = try scanner.nextKey() {
        fields.append(.init(scanner.decodeString(k), try value(try scanner.next(), &scanner, fail)))
      }
      return .object(fields)
    default:
      throw fail("metadata.\(migrationsKey) holds only strings, arrays and objects", first.start)
    }
  }
}
