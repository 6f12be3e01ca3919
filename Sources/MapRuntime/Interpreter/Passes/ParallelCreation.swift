import Dispatch

/// Pass 1 of a direct entity mapping (`CreationPlan.isDirect`, default policy) on every core.
///
/// The source objects are cut into consecutive chunks. A first parallel sweep counts the
/// instances each source object makes (one, or one per forEach element); the destination
/// columns then get room for all of them, and a second parallel sweep writes every chunk's
/// cells straight into its own rows. Association runs and constants are added afterwards on
/// one thread. The rows, values and associations are those that making the instances one
/// after another gives.
///
/// A chunk gives up when it meets anything it cannot store exactly as the column would: a
/// value that needs converting, a source object of another entity, a forEach value or
/// `$source.key[$index]` list that is not a JSON array, a date string with escapes. The
/// destination is then put back as it was and the mapping runs on one thread, where the
/// general code converts the value or reports the error.
// unchecked: its columns and arrays are shared by the sweeps, each chunk writing only its own rows.
public struct ParallelCreation: @unchecked Sendable {
  /// Below this many source objects one thread is about as fast; with one core, always.
  public static var defaultMinimum: Int { MigrationManagerOptions.defaultParallelMinimum }

  /// How one attribute mapping is stored.
  enum Cell {
    /// A `TextColumn` value, packed (see `TextColumn.pack`).
    case text
    /// The same packed text in every row (`AttributeOp.sharedText`).
    case sharedText(UInt64)
    /// An `IntColumn` value that must lie in the attribute type's range.
    case int(AttributeType)
    /// A `DoubleColumn` value: a date, or a Double or Float attribute's number.
    case double(isDate: Bool)
    /// A constant of another kind, set on one thread afterwards.
    case constant(Value)
  }

  /// What a chunk does for one attribute mapping: `AttributeOp` without references to shared
  /// objects, so that threads do not contend for their reference counts.
  enum Step {
    case skip
    case sharedText(UInt64)
    case index
    case item
    case sourceValue(column: Int)
    case sourceElement(column: Int)
    /// `pattern` indexes `patterns`, which each chunk compiles for itself.
    case sourceDate(column: Int, pattern: Int)
  }

  /// Where a chunk writes one attribute: the column's arrays, open for the fill.
  struct Target {
    /// 8 bytes per row: packed text, Int64 or Double.
    var cells: UnsafeMutableRawPointer?
    var present: UnsafeMutablePointer<Bool>?
  }

  let plan: CreationPlan
  let cells: [Cell]
  let steps: [Step]
  let patterns: [String]
  /// The source entity's columns.
  let sourceColumns: [Unmanaged<Column>]
  let sourceEntity: Int
  let forEachColumn: Int?
  let source: ObjectGraph
  let input: InputBytes
  /// How the Transformable payloads of `input` are read (forEach collections).
  let codec: any TransformableCodec.Type

  /// Nil when the mapping cannot be made this way.
  init?(_ lm: LinkedMapping, source: ObjectGraph) {
    guard let plan = lm.creation, plan.isDirect, let sourceEntity = lm.sourceEntity, let input = source.input,
      let codec = source.transformableCodec,
      lm.forEach == nil || lm.forEachColumn != nil, Set(plan.columns).count == plan.columns.count
    else { return nil }
    var cells: [Cell] = []
    var steps: [Step] = []
    var patterns: [String] = []
    for k in plan.ops.indices {
      switch plan.ops[k] {
      case .code, .constant: steps.append(.skip)
      case .sharedText(_, let packed): steps.append(.sharedText(packed))
      case .index: steps.append(.index)
      case .item: steps.append(.item)
      case .sourceValue(_, let c): steps.append(.sourceValue(column: c))
      case .sourceElement(_, let c): steps.append(.sourceElement(column: c))
      case .sourceDate(_, let c, let pattern):
        steps.append(.sourceDate(column: c, pattern: patterns.count))
        patterns.append(pattern.pattern)
      }
      let column = plan.table.columns[plan.columns[k]]
      guard let type = plan.table.attributeTypes[plan.columns[k]] else { return nil }
      switch plan.ops[k] {
      case .code:
        return nil
      case .constant(let c):
        cells.append(.constant(c))
      case .sharedText(_, let packed):
        cells.append(.sharedText(packed))
      case .index:
        cells.append(.int(.integer64))  // the linker checked that every index fits
      case .sourceDate:
        guard let d = column as? DoubleColumn, d.isDate else { return nil }
        cells.append(.double(isDate: true))
      case .item, .sourceValue, .sourceElement:
        if column is TextColumn, type == .string || type == .uri {
          cells.append(.text)
        } else if column is IntColumn {
          cells.append(.int(type))
        } else if let d = column as? DoubleColumn {
          cells.append(.double(isDate: d.isDate))
        } else {
          return nil
        }
      }
    }
    self.plan = plan
    self.cells = cells
    self.steps = steps
    self.patterns = patterns
    self.sourceColumns = source.tables[sourceEntity].columns.map { Unmanaged.passUnretained($0) }
    self.sourceEntity = sourceEntity
    self.forEachColumn = lm.forEachColumn
    self.source = source
    self.input = input
    self.codec = codec
  }

  /// Makes the instances of every source object in `sources`, appending them to the
  /// destination table and the association table. Returns false, having changed nothing, when
  /// a chunk gave up.
  func run(_ sources: [Value], sourceKey: (ObjectRef) -> Int) -> Bool {
    let n = sources.count
    let chunkCount = min(Cores.workers * 4, max(1, n / 1024))
    let size = (n + chunkCount - 1) / chunkCount
    @Sendable func range(_ c: Int) -> Range<Int> { min(n, c * size)..<min(n, (c + 1) * size) }

    var counts = [Int32](repeating: 0, count: n)
    var rows = [Int](repeating: -1, count: chunkCount)
    sources.withUnsafeBufferPointer { all in
      counts.withUnsafeMutableBufferPointer { counts in
        rows.withUnsafeMutableBufferPointer { rows in
          // Unsafe: each chunk `c` writes only `rows[c]` and the counts of its own range.
          nonisolated(unsafe) let (all, counts, rows) = (all, counts, rows)
          DispatchQueue.concurrentPerform(iterations: chunkCount) { c in
            rows[c] = count(all, range(c), counts) ?? -1
          }
        }
      }
    }
    guard rows.allSatisfy({ $0 >= 0 }) else { return false }

    let table = plan.table
    let first = table.count
    var offsets: [Int] = []
    var total = 0
    for r in rows {
      offsets.append(first + total)
      total += r
    }
    let starts = offsets
    table.reserve(first + total)
    _ = table.appendObjects(total)
    for k in cells.indices { table.columns[plan.columns[k]].pad(to: first + total) }

    var done = [Bool](repeating: false, count: chunkCount)
    // Per chunk, per attribute mapping: the native strings of its text cells, numbered from 1
    // within the chunk until they move to the column's side table below.
    var natives = [[[String]]](repeating: [], count: chunkCount)
    let filled = opening(0, []) { targets in
      sources.withUnsafeBufferPointer { all in
        counts.withUnsafeBufferPointer { counts in
          done.withUnsafeMutableBufferPointer { done in
            natives.withUnsafeMutableBufferPointer { natives in
              // Unsafe: each chunk writes only its own entries and the rows it was given.
              nonisolated(unsafe) let (all, counts, done, natives, targets) = (all, counts, done, natives, targets)
              DispatchQueue.concurrentPerform(iterations: chunkCount) { c in
                done[c] = fill(all, range(c), counts, from: starts[c], targets, natives: &natives[c])
              }
            }
          }
        }
      }
      return done.allSatisfy { $0 }
    }
    guard filled else {
      table.truncate(to: first)
      for k in cells.indices { table.columns[plan.columns[k]].truncate(to: first) }
      return false
    }
    for k in cells.indices {
      guard case .text = cells[k] else { continue }
      let column = unsafeDowncast(table.columns[plan.columns[k]], to: TextColumn.self)
      for c in 0..<chunkCount where !natives[c][k].isEmpty {
        let shift = UInt64(column.arena.count) << 1
        for r in starts[c]..<(starts[c] + rows[c]) {
          let v = column.values[r]
          if v != 0 && v & 1 == 0 { column.values[r] = v + shift }
        }
        column.arena.append(contentsOf: natives[c][k])
      }
    }

    for k in cells.indices {
      guard case .constant(let c) = cells[k] else { continue }
      let column = table.columns[plan.columns[k]]
      for r in first..<(first + total) { column.set(r, c) }
    }
    var row = first
    for i in 0..<n where counts[i] > 0 {
      guard case .sourceObject(let s) = sources[i] else { continue }
      plan.associations.addRun(
        sourceKey: sourceKey(s), first: ObjectRef(entity: plan.entity, row: row), count: Int(counts[i]))
      row += Int(counts[i])
    }
    return true
  }

  /// Opens the arrays of the columns from attribute mapping `k` on and runs `body` with them.
  private func opening(_ k: Int, _ targets: [Target], _ body: ([Target]) -> Bool) -> Bool {
    if k == cells.count { return body(targets) }
    let column = plan.table.columns[plan.columns[k]]
    switch cells[k] {
    case .text, .sharedText:
      return unsafeDowncast(column, to: TextColumn.self).values.withUnsafeMutableBytes { v in
        opening(k + 1, targets + [Target(cells: v.baseAddress)], body)
      }
    case .int:
      let c = unsafeDowncast(column, to: IntColumn.self)
      return c.values.withUnsafeMutableBytes { v in
        c.present.withUnsafeMutableBufferPointer { p in
          opening(k + 1, targets + [Target(cells: v.baseAddress, present: p.baseAddress)], body)
        }
      }
    case .double:
      let c = unsafeDowncast(column, to: DoubleColumn.self)
      return c.values.withUnsafeMutableBytes { v in
        c.present.withUnsafeMutableBufferPointer { p in
          opening(k + 1, targets + [Target(cells: v.baseAddress, present: p.baseAddress)], body)
        }
      }
    case .constant:
      return opening(k + 1, targets + [Target()], body)
    }
  }

  /// Instances each source object of `range` makes, into `counts`; their sum, or nil when the
  /// chunk gives up.
  private func count(
    _ sources: UnsafeBufferPointer<Value>, _ range: Range<Int>, _ counts: UnsafeMutableBufferPointer<Int32>
  )
    -> Int?
  {
    // forEach values of a column that are equal share their bytes (see `StringCompaction`),
    // so one of the last few counted is usually the next one.
    var recent = RecentPayloads<Int>()
    var total = 0
    for i in range {
      guard case .sourceObject(let s) = sources[i], Int(s.entity) == sourceEntity else { return nil }
      var n = 1
      if let fc = forEachColumn {
        switch sourceColumns[fc]._withUnsafeGuaranteedRef({ $0.get(Int(s.row)) }) {
        case .null:
          n = 0
        case .transformable(let js):
          if let k = recent[js.start] {
            n = k
          } else {
            guard let k = codec.arrayCount(input, js) else { return nil }
            recent.add(js.start, k)
            n = k
          }
        default:
          return nil
        }
      }
      counts[i] = Int32(n)
      total += n
    }
    return total
  }

  /// Writes the cells of the instances of `range`, the first in row `row`; false when the
  /// chunk gives up.
  private func fill(
    _ sources: UnsafeBufferPointer<Value>, _ range: Range<Int>, _ counts: UnsafeBufferPointer<Int32>,
    from row: Int, _ targets: [Target], natives: inout [[String]]
  ) -> Bool {
    natives = [[String]](repeating: [], count: steps.count)
    let steps = self.steps
    let cells = self.cells
    let columns = sourceColumns
    let patterns = self.patterns.map { p -> DatePattern? in
      if case .success(let compiled) = DatePattern.compile(p) { return compiled }
      return nil
    }
    @inline(__always) func get(_ c: Int, _ row: Int) -> Value { columns[c]._withUnsafeGuaranteedRef { $0.get(row) } }
    var row = row
    var perSource = [Value](repeating: .null, count: steps.count)
    var lists = [[Value]](repeating: [], count: steps.count)
    var recent = RecentPayloads<[Value]>()
    var items: [Value] = []
    var itemsStart = -1
    for i in range {
      let n = Int(counts[i])
      guard n > 0, case .sourceObject(let s) = sources[i] else { continue }
      let r = Int(s.row)
      if let fc = forEachColumn, case .transformable(let js) = get(fc, r), js.start != itemsStart {
        if let kept = recent[js.start] {
          items = kept
        } else {
          guard codec.elements(input, js, into: &items) else { return false }
          recent.add(js.start, items)
        }
        guard items.count == n else { return false }
        itemsStart = js.start
      }
      for k in steps.indices {
        switch steps[k] {
        case .sourceValue(let c):
          perSource[k] = get(c, r)
        case .sourceElement(let c):
          switch get(c, r) {
          case .null:
            lists[k].removeAll(keepingCapacity: true)
          case .transformable(let js):
            guard codec.elements(input, js, into: &lists[k]) else { return false }
          default:
            return false
          }
        case .sourceDate(let c, let p):
          switch get(c, r) {
          case .null:
            perSource[k] = .null
          case .string(.slice(let t)) where !t.hasEscapes:
            guard let pattern = patterns[p] else { return false }
            perSource[k] = pattern.parse(bytes: input.buffer(t)).map(Value.date) ?? .null
          default:
            return false
          }
        default:
          break
        }
      }
      for j in 0..<n {
        for k in steps.indices {
          let target = targets[k]
          switch steps[k] {
          case .skip:
            continue
          case .sharedText(let packed):
            target.cells!.storeBytes(of: packed, toByteOffset: row &* 8, as: UInt64.self)
          case .index:
            target.cells!.storeBytes(of: Int64(j), toByteOffset: row &* 8, as: Int64.self)
            target.present![row] = true
          case .item:
            guard put(items[j], cells[k], target, row, &natives[k]) else { return false }
          case .sourceValue, .sourceDate:
            guard put(perSource[k], cells[k], target, row, &natives[k]) else { return false }
          case .sourceElement:
            guard put(j < lists[k].count ? lists[k][j] : .null, cells[k], target, row, &natives[k]) else {
              return false
            }
          }
        }
        row += 1
      }
    }
    return true
  }

  /// Stores a value as the attribute's column would; false when it would need converting. A
  /// native string goes to `natives` (its number there stands in the cell until `run` moves
  /// it to the column's side table).
  @inline(__always) private func put(
    _ v: Value, _ cell: Cell, _ t: Target, _ row: Int, _ natives: inout [String]
  ) -> Bool {
    let offset = row &* 8
    switch cell {
    case .text:
      switch v {
      case .null: t.cells!.storeBytes(of: 0, toByteOffset: offset, as: UInt64.self)
      case .string(.slice(let s)) where TextColumn.fitsPacked(s):
        t.cells!.storeBytes(of: TextColumn.packSlice(s), toByteOffset: offset, as: UInt64.self)
      case .string(.native(let s)):
        natives.append(s)
        t.cells!.storeBytes(of: UInt64(natives.count) << 1, toByteOffset: offset, as: UInt64.self)
      default: return false
      }
    case .int(let type):
      switch v {
      case .null:
        t.cells!.storeBytes(of: 0, toByteOffset: offset, as: Int64.self)
        t.present![row] = false
      case .int(let x) where type == .integer64 || type.integerRange?.contains(x) == true:
        t.cells!.storeBytes(of: x, toByteOffset: offset, as: Int64.self)
        t.present![row] = true
      default:
        return false
      }
    case .double(let isDate):
      switch v {
      case .null:
        t.cells!.storeBytes(of: 0, toByteOffset: offset, as: Double.self)
        t.present![row] = false
      case .date(let x) where isDate:
        t.cells!.storeBytes(of: x, toByteOffset: offset, as: Double.self)
        t.present![row] = true
      case .double(let x) where !isDate:
        t.cells!.storeBytes(of: x, toByteOffset: offset, as: Double.self)
        t.present![row] = true
      default:
        return false
      }
    case .sharedText, .constant:
      break
    }
    return true
  }
}

/// The last few forEach payloads of a chunk and what was read from them, by where they start.
struct RecentPayloads<T> {
  private var starts: [Int] = []
  private var values: [T] = []
  private var next = 0

  subscript(start: Int) -> T? {
    for k in starts.indices where starts[k] == start { return values[k] }
    return nil
  }

  mutating func add(_ start: Int, _ value: T) {
    if starts.count < 8 {
      starts.append(start)
      values.append(value)
    } else {
      starts[next] = start
      values[next] = value
      next = (next + 1) % 8
    }
  }
}
