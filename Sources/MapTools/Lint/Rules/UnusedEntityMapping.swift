import MapRuntime
import MapSyntax

/// `lint-unused-entity-mapping`: an entity mapping that does nothing, or only repeats another.
struct UnusedEntityMapping: LintCheck {
  static let person = DestinationEntityUnproduced.person

  static let rule = LintRule(
    id: "lint-unused-entity-mapping", severity: .warning,
    title: "An entity mapping that can never do anything, or repeats another",
    explanation: """
      Left-overs of editing a mapping model: an entity mapping whose filter or source fetch is \
      FALSEPREDICATE, whose <forEach> is the empty collection {}, an add mapping without \
      <forEach> (it has no source instances, so it creates nothing), a mapping whose source \
      entity is abstract with no subentities (it has no instances), a remove mapping for a \
      source entity that another mapping migrates anyway, or a mapping that repeats an earlier \
      one (same source, destination, source instances and forEach), which creates every \
      destination object twice. Each hides what the migration really does; delete it, or fix \
      it so that it does what it was meant to.
      """,
    suppression: "on the <entityMapping> element",
    bad: LintExample(
      source: person, destination: person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
          ‸<entityMapping name="ArchivedPersonToPerson" type="transform" source="Person" destination="Person">
            <filter>FALSEPREDICATE</filter>
          </entityMapping>
        """)),
    good: LintExample(
      source: person, destination: person,
      mapping: exampleMapping(
        """
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        """)))

  func findings(in context: LintContext) -> [Diagnostic] {
    var result: [Diagnostic] = []
    var earlier: [DraftMapping] = []
    for m in context.mappings where !m.isDuplicate {
      if let why = reason(m, context: context, earlier: earlier) {
        result.append(Self.rule.finding("entity mapping \(m.name) \(why)", at: m.element.location))
      }
      earlier.append(m)
    }
    return result
  }

  private func reason(_ m: DraftMapping, context: LintContext, earlier: [DraftMapping]) -> String? {
    let e = m.element
    if let filter = e.filter, case .success(let p) = ExpressionParsing.parsePredicate(filter.text),
      p.kind == .constant(false)
    {
      return "can never create anything: its filter is FALSEPREDICATE"
    }
    if let text = e.sourceExpression, case .success(let x) = ExpressionParsing.parseExpression(text.text),
      case .fetch(let request, _, _) = x.kind,
      case .selector(_, "fetchRequestForSourceEntityNamed:predicateString:", let args) = request.kind,
      args.count == 2, case .constant(.string(let predicate)) = args[1].kind,
      predicate.trimmedXMLSpace == "FALSEPREDICATE"
    {
      return "can never create anything: its source fetch is FALSEPREDICATE"
    }
    if let text = e.forEach, case .success(let x) = ExpressionParsing.parseExpression(text.text),
      x.kind == .aggregate([])
    {
      return "can never create anything: its forEach is the empty collection {}"
    }
    if m.type == .add && e.forEach == nil && e.sourceExpression == nil {
      return
        "creates nothing: an add mapping has no source instances, so it needs <forEach> (for one object: <forEach>{1}</forEach>)"
    }
    if let s = m.sourceEntity, s.isAbstract, context.source.subentities(of: s.name).isEmpty {
      return "can never create anything: its source entity \(s.name) is abstract and has no subentities"
    }
    if m.type == .remove, let s = e.source?.value {
      if let other = context.mappings.first(where: {
        $0.type != .remove && $0.element.source.map { context.source.isKind(s, of: $0.value) } == true
      }) {
        return "says to drop \(s) objects, but mapping \(other.name) migrates them"
      }
      return nil
    }
    if let compiled = m.compiled, compiled.destinationEntity != nil,
      let first = earlier.first(where: { o in
        guard let c = o.compiled else { return false }
        return c.sourceEntity == compiled.sourceEntity && c.destinationEntity == compiled.destinationEntity
          && c.sourceExpression == compiled.sourceExpression && c.forEach == compiled.forEach
      })
    {
      let d = compiled.destinationEntity ?? ""
      return
        "repeats mapping \(first.name): every \(compiled.sourceEntity ?? d) it reads yields a second \(d); delete one, or give them different source instances"
    }
    return nil
  }
}
