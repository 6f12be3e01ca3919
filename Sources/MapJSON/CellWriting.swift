import MapJSONText
import MapRuntime

/// What a column needs to write its cells: where the input's bytes are (string slices point
/// into them) and the encoded `"Entity/` prefix of every entity's object ids. Plain pointers,
/// so passing it to every cell costs no reference counting; `StoreWriter` keeps the memory alive.
struct CellWriting {
  let input: UnsafeRawPointer?
  /// All prefixes one after another; entity `e`'s is `prefixStart[e]..<prefixStart[e + 1]`.
  let prefixes: UnsafeRawPointer
  let prefixStart: UnsafePointer<Int>
  /// Per entity, the objects' own numbers for their ids, or nil for `row + 1`.
  let numbers: UnsafePointer<UnsafePointer<Int64>?>
  /// The codec of Transformable payloads that are not JSON text (a graph read from another
  /// format), with the bytes they are in; nil when they are JSON text, copied as they are.
  var foreignCodec: (any TransformableCodec.Type)? = nil
  var foreignInput: Unmanaged<InputBytes>? = nil

  @inline(__always) func writeID(_ ref: ObjectRef, to out: inout JSONOutput) {
    let e = Int(ref.entity)
    let start = prefixStart[e]
    out.writeString(
      encodedPrefix: UnsafeRawBufferPointer(start: prefixes + start, count: prefixStart[e + 1] - start),
      number: numbers[e].map { $0[Int(ref.row)] } ?? Int64(ref.row) + 1)
  }

  @inline(__always) func writeText(_ t: Text, to out: inout JSONOutput) {
    switch t {
    case .native(let s): out.writeString(s)
    case .slice(let s):
      if let input {
        out.writeString(
          raw: UnsafeRawBufferPointer(start: input + s.start, count: Int(s.count)), hasEscapes: s.hasEscapes)
      } else {
        out.writeNull()
      }
    }
  }
}

extension CellWriting {
  /// Writes the cell of `row` of a column as a JSON value of the store. The graph's columns
  /// hold values only; the switch over their kinds is the JSON rendering of each.
  @inline(__always)
  func writeCell(_ column: ColumnCells, _ row: Int, to out: inout JSONOutput) throws(StoreWriteError) {
    switch column.kind {
    case .int:
      if let v = column.int(row) { out.writeInt(v) } else { out.writeNull() }
    case .double:
      guard let v = column.double(row) else {
        out.writeNull()
        return
      }
      do {
        if column.isDate { try out.writeDateAttribute(v) } else { try out.writeDouble(v) }
      } catch {
        throw .value(error, column.isDate ? "a date" : "a number")
      }
    case .bool:
      switch column.bool(row) {
      case 0: out.writeBool(false)
      case 1: out.writeBool(true)
      default: out.writeNull()
      }
    case .text:
      let v = column.packed(row)
      if v == 0 {
        out.writeNull()
      } else if v & 1 == 1 {
        writeText(.slice(TextColumn.slice(v)), to: &out)
      } else {
        writeText(column.column._withUnsafeGuaranteedRef { unsafeDowncast($0, to: TextColumn.self).text(v) }, to: &out)
      }
    case .value:
      let value = column.column._withUnsafeGuaranteedRef { unsafeDowncast($0, to: ValueColumn.self).get(row) }
      try StoreWriter.writeValue(value, to: &out, self)
    case .toOne:
      let v = column.packed(row)
      if v == 0 { out.writeNull() } else { writeID(ObjectRef(packed: v), to: &out) }
    case .toMany:
      out.beginArray()
      for m in column.members(row) { writeID(ObjectRef(packed: m), to: &out) }
      out.endArray()
    }
  }
}
