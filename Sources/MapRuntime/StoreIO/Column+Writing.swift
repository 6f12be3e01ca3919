/// What a column needs to write its cells: where the input's bytes are (string slices point
/// into them) and the encoded `"Entity/` prefix of every entity's object ids. Plain pointers,
/// so passing it to every cell costs no reference counting; `StoreWriter` keeps the memory alive.
struct CellWriting {
  let input: UnsafeRawPointer?
  /// All prefixes one after another; entity `e`'s is `prefixStart[e]..<prefixStart[e + 1]`.
  let prefixes: UnsafeRawPointer
  let prefixStart: UnsafePointer<Int>

  @inline(__always) func writeID(_ ref: ObjectRef, to out: inout JSONOutput) {
    let e = Int(ref.entity)
    let start = prefixStart[e]
    out.writeString(
      encodedPrefix: UnsafeRawBufferPointer(start: prefixes + start, count: prefixStart[e + 1] - start),
      number: Int64(ref.row) + 1)
  }

  @inline(__always) func writeText(_ t: Text, to out: inout JSONOutput) {
    switch t {
    case .native(let s): out.writeString(s)
    case .slice(let s):
      if let input {
        out.writeString(raw: UnsafeRawBufferPointer(start: input + s.start, count: Int(s.count)), hasEscapes: s.hasEscapes)
      } else {
        out.writeNull()
      }
    }
  }
}
