extension DataLoss {
  /// `Questions: 1 object (questions: 1 value); Pet.fullName: 2 values`: each lost entity with
  /// the values it holds, then each lost property of a migrated entity.
  public static func describe(_ losses: [DataLoss]) -> String {
    var parts: [String] = []
    var i = 0
    while i < losses.count {
      let loss = losses[i]
      i += 1
      guard loss.property == nil else {
        parts.append("\(loss.name): \(loss.countText)")
        continue
      }
      var values: [String] = []
      while i < losses.count, losses[i].entity == loss.entity, let p = losses[i].property {
        values.append("\(p): \(losses[i].countText)")
        i += 1
      }
      parts.append("\(loss.entity): \(loss.countText)" + (values.isEmpty ? "" : " (\(values.joined(separator: ", ")))"))
    }
    return parts.joined(separator: "; ")
  }

  /// The `--allow-drop` options that accept exactly `losses`.
  public static func allowDropOptions(_ losses: [DataLoss]) -> String {
    let entities = Set(losses.filter { $0.property == nil }.map(\.entity))
    let names = losses.filter { $0.property == nil || !entities.contains($0.entity) }.map(\.name)
    return names.map { "--allow-drop \($0)" }.joined(separator: " ")
  }
}
