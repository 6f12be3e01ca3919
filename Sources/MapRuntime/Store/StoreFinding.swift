/// One thing wrong in a store that `mapc store check` finds (Specs/store-check.md): what would
/// make Core Data fail or lose data, placed at its table, row (`Z_PK`) and entity, with a
/// stable id (`check-*`). A value: the format that found it is not named.
public struct StoreFinding: Sendable, Equatable {
  /// error: Core Data fails, or loses data, on open or the next fetch; warning: the store
  /// opens, but the next save or heavyweight migration fails; note: harmless to Core Data,
  /// said so that nothing is hidden.
  public typealias Severity = DiagnosticLine.Severity

  /// Whether `mapc store repair` can repair it: not at all, always (nothing the store holds is
  /// lost), or only when told that the loss of `name` (an `--allow-drop` name; nil: only
  /// `--allow-data-loss`) is accepted.
  public enum Fix: Sendable, Equatable {
    case none
    case safe
    case withConsent(name: String?)
  }

  public var id: String
  public var severity: Severity
  public var message: String
  public var table: String?
  public var column: String?
  /// `Z_PK` of the row (or the join row's first key), when the finding is about one row.
  public var row: Int64?
  public var entity: String?
  /// How many rows a finding that stands for several counts (1 for one row or none).
  public var count: Int
  /// What `mapc store repair` does about it, or why it does nothing.
  public var repair: String
  public var fix: Fix

  public init(
    _ id: String, _ severity: Severity, _ message: String, table: String? = nil, column: String? = nil,
    row: Int64? = nil, entity: String? = nil, count: Int = 1, repair: String, fix: Fix = .none
  ) {
    self.fix = fix
    self.id = id
    self.severity = severity
    self.message = message
    self.table = table
    self.column = column
    self.row = row
    self.entity = entity
    self.count = count
    self.repair = repair
  }

  /// `TABLE.COLUMN Z_PK=N (Entity)`, the parts it has.
  public var place: String {
    var parts: [String] = []
    if let table { parts.append(column.map { "\(table).\($0)" } ?? table) }
    if let row { parts.append("Z_PK \(row)") }
    if let entity { parts.append("(\(entity))") }
    return parts.joined(separator: " ")
  }

  /// The order findings are printed in: by table, column, row, id.
  public static func ordered(_ a: StoreFinding, _ b: StoreFinding) -> Bool {
    // A finding that counts the rows after the listed ones comes after them.
    let x = (a.table ?? "", a.column ?? "", a.row ?? (a.count > 1 ? Int64.max : Int64.min), a.id, a.message)
    let y = (b.table ?? "", b.column ?? "", b.row ?? (b.count > 1 ? Int64.max : Int64.min), b.id, b.message)
    return x < y
  }
}
