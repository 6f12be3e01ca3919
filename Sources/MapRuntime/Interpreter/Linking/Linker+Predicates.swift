/// Linking predicates: each comparison or compound becomes a test closure over the frame.
extension Linker {

  func test(_ p: Predicate) throws(MigrationError) -> Test {
    switch p.kind {
    case .constant(let b):
      return { _, _ in b }
    case .not(let inner):
      let t = try test(inner)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Bool in try !t(m, &frame) }
    case .and(let parts):
      let tests = try parts.map { (x) throws(MigrationError) in try test(x) }
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Bool in
        for t in tests where try !t(m, &frame) { return false }
        return true
      }
    case .or(let parts):
      let tests = try parts.map { (x) throws(MigrationError) in try test(x) }
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Bool in
        for t in tests where try t(m, &frame) { return true }
        return false
      }
    case .comparison(let c):
      let l = try code(c.lhs)
      let r = try code(c.rhs)
      let op = c.op
      let options = c.options
      let loc = location(p.span)
      func located(_ error: MigrationError) -> MigrationError {
        guard error.location == nil else { return error }
        var x = error
        x.location = loc
        return x
      }
      switch c.modifier {
      case .direct:
        return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Bool in
          let a = try l(m, &frame)
          let b = try r(m, &frame)
          do throws(MigrationError) { return try m.compare(a, op, b, options) } catch { throw located(error) }
        }
      case .any, .all, .none:
        let modifier = c.modifier
        return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Bool in
          let items = try m.elements(try l(m, &frame))
          let b = try r(m, &frame)
          do throws(MigrationError) {
            switch modifier {
            case .all:
              for x in items where try !m.compare(x, op, b, options) { return false }
              return true
            case .any:
              for x in items where try m.compare(x, op, b, options) { return true }
              return false
            default:
              for x in items where try m.compare(x, op, b, options) { return false }
              return true
            }
          } catch { throw located(error) }
        }
      }
    }
  }
}
