/// What a column needs to write its cells: the input that string slices point into and the
/// `Entity/` prefix of every entity's object ids.
struct CellWriting {
  let input: InputBytes?
  let prefixes: [PreparedStringPrefix]

  @inline(__always) func writeID(_ ref: ObjectRef, to out: inout JSONOutput) {
    out.writeString(prefix: prefixes[Int(ref.entity)], number: Int64(ref.row) + 1)
  }

  @inline(__always) func writeText(_ t: Text, to out: inout JSONOutput) {
    switch t {
    case .native(let s): out.writeString(s)
    case .slice(let s):
      if let input { out.writeString(raw: input.buffer(s), hasEscapes: s.hasEscapes) } else { out.writeNull() }
    }
  }
}

