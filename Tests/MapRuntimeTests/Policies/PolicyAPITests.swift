import Foundation
import Testing

@testable import MapRuntime

/// Records every hook call in `manager.userInfo["log"]`.
final class HookRecorder: EntityMigrationPolicy, @unchecked Sendable {
  func log(_ text: String, _ m: MigrationManager) {
    m.userInfo["log"] = (m.userInfo["log"] as? [String] ?? []) + ["\(m.currentEntityMapping.name) \(text)"]
  }
  override func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {
    log("begin", manager)
  }
  override func createDestinationInstances(
    forSource source: ObjectRef?, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    log("create \(source.map { manager.sourceID($0) } ?? "nil")", manager)
    try super.createDestinationInstances(forSource: source, mapping: mapping, manager: manager)
  }
  override func endInstanceCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {
    log("endInstanceCreation", manager)
  }
  override func createRelationships(
    forDestination destination: ObjectRef, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    log("relationships \(manager.destinationID(destination))", manager)
    try super.createRelationships(forDestination: destination, mapping: mapping, manager: manager)
  }
  override func endRelationshipCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {
    log("endRelationshipCreation", manager)
  }
  override func performCustomValidation(_ mapping: EntityMapping, manager: MigrationManager) throws {
    log("performCustomValidation", manager)
  }
  override func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {
    log("end", manager)
  }
  override func perform(selector: String, arguments: [Value], manager: MigrationManager) throws -> Value? {
    switch selector {
    case "describe:":
      // Sees the calling expression's variables.
      let f = manager.currentFrame
      return Value(
        "\(selector) \(manager.string(arguments[0]) ?? "nil") item \(f?.item.intValue ?? -1) property \(f.flatMap { manager.propertyName($0) } ?? "-")"
      )
    case "fail:":
      throw manager.error("failing on purpose", about: manager.currentFrame?.destination, code: "test-fail")
    case "throwPlain:":
      struct Plain: Error {}
      throw Plain()
    default:
      return nil
    }
  }
}

/// Throws from a hook: a located error, an unlocated one, or another Error.
final class FailingHookPolicy: EntityMigrationPolicy, @unchecked Sendable {
  struct Oops: Error, CustomStringConvertible { var description: String { "oops" } }
  override func endInstanceCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {
    switch mapping.name {
    case "M1":
      let d = try manager.destinationInstances(ofEntity: "Thing")[0]
      throw manager.error("bad thing", about: .destinationObject(d))
    default: throw Oops()
    }
  }
}

enum PolicyTestPlans {
  static func x(_ k: MapRuntime.Expression.Kind) -> MapRuntime.Expression {
    MapRuntime.Expression(k, span: .synthesized)
  }
  static func int(_ i: Int64) -> MapRuntime.Expression { x(.constant(.integer(i))) }

  /// Two `add` mappings over Thing, each with `forEach {1, 2}` and `name` from `nameExpression`.
  static func plan(policy: String?, nameExpression: MapRuntime.Expression? = nil) -> MigrationPlan {
    let thing = EntityDescription(
      name: "Thing", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)])
    let model = ObjectModel(entities: [thing])
    func mapping(_ name: String, line: Int) -> EntityMapping {
      EntityMapping(
        name: name, type: .add, sourceEntity: nil, destinationEntity: "Thing", policyName: policy,
        forEach: CompiledExpression(x(.aggregate([int(1), int(2)]))),
        attributeMappings: nameExpression.map {
          [PropertyMapping(name: "name", valueExpression: CompiledExpression($0))]
        } ?? [],
        location: SourceLocation(file: "m.xml", line: line, column: 3))
    }
    return MigrationPlan(
      name: "P", mappingPath: "m.xml", sourceModel: model, destinationModel: model,
      sourceEntityHashes: [], destinationEntityHashes: [],
      entityMappings: [mapping("M1", line: 10), mapping("M2", line: 20)])
  }

  static func manager(_ plan: MigrationPlan) throws(MigrationFailure) -> MigrationManager {
    let graph = ObjectGraph(layout: StoreLayout(model: plan.sourceModel), input: nil, isSource: true)
    return try MigrationManager(plan: plan, source: graph)
  }
}

@Suite(.serialized) struct PolicyAPITests {
  init() {
    PolicyRegistry.register(HookRecorder.self)
    PolicyRegistry.register(FailingHookPolicy.self)
  }

  @Test func hooksRunInCoreDataOrder() throws {
    let m = try PolicyTestPlans.manager(PolicyTestPlans.plan(policy: "MapRuntimeTests.HookRecorder"))
    try m.migrate()
    #expect(
      m.userInfo["log"] as? [String] == [
        "M1 begin", "M1 create nil", "M1 endInstanceCreation",
        "M2 begin", "M2 create nil", "M2 endInstanceCreation",
        "M1 relationships Thing/1", "M1 relationships Thing/2", "M1 endRelationshipCreation",
        "M2 relationships Thing/3", "M2 relationships Thing/4", "M2 endRelationshipCreation",
        "M1 performCustomValidation", "M1 end", "M2 performCustomValidation", "M2 end",
      ])
  }

  @Test func policyFunctionsSeeTheCallingFrame() throws {
    let call = PolicyTestPlans.x(
      .selector(
        target: PolicyTestPlans.x(.variable("entityPolicy")), selector: "describe:",
        arguments: [PolicyTestPlans.x(.constant(.string("hi")))]))
    let m = try PolicyTestPlans.manager(PolicyTestPlans.plan(policy: "HookRecorder", nameExpression: call))
    try m.migrate()
    let names = try m.destinationInstances(ofEntity: "Thing").map { m.string(m.destinationValue($0, "name")) }
    #expect(
      names == [
        "describe: hi item 1 property name", "describe: hi item 2 property name",
        "describe: hi item 1 property name", "describe: hi item 2 property name",
      ])
    #expect(m.currentFrame == nil)
  }

  @Test func policyFunctionErrorsNameTheObjectAndFailTheRun() throws {
    func run(_ selector: String) throws -> MigrationFailure? {
      let call = PolicyTestPlans.x(
        .selector(
          target: PolicyTestPlans.x(.variable("entityPolicy")), selector: selector, arguments: [PolicyTestPlans.int(1)])
      )
      let m = try PolicyTestPlans.manager(PolicyTestPlans.plan(policy: "HookRecorder", nameExpression: call))
      do throws(MigrationFailure) {
        try m.migrate()
        return nil
      } catch { return error }
    }
    let failure = try #require(try run("fail:"))
    #expect(failure.errors.first?.code == "test-fail")
    #expect(failure.errors.first?.message == "Thing/1 (created by M1): failing on purpose")
    #expect(failure.errors.first?.location?.line == 10)
    let plain = try #require(try run("throwPlain:"))
    #expect(plain.errors.first?.code == "run-policy-error")
    let unknown = try #require(try run("noSuchSelector:"))
    #expect(unknown.errors.first?.code == "run-unknown-selector")
  }

  @Test func hookErrorsArePlacedAtTheMapping() throws {
    let m = try PolicyTestPlans.manager(PolicyTestPlans.plan(policy: "FailingHookPolicy"))
    var failure: MigrationFailure?
    do throws(MigrationFailure) { try m.migrate() } catch { failure = error }
    let errors = try #require(failure).errors
    #expect(
      errors.map(\.description) == [
        "m.xml:10:3: error: Thing/1 (created by M1): bad thing [run-policy-error]",
        "m.xml:20:3: error: FailingHookPolicy.endInstanceCreation failed in mapping M2: oops [run-policy-error]",
      ])
  }

  @Test func unknownAndAmbiguousPolicyNames() throws {
    final class A: EntityMigrationPolicy, @unchecked Sendable {}
    final class B: EntityMigrationPolicy, @unchecked Sendable {}
    PolicyRegistry.register(A.self, as: "ModA.SamePolicy")
    PolicyRegistry.register(B.self, as: "ModB.SamePolicy")
    defer {
      PolicyRegistry.unregister("ModA.SamePolicy")
      PolicyRegistry.unregister("ModB.SamePolicy")
    }
    guard case .ambiguous(let names) = PolicyRegistry.resolve("SamePolicy") else {
      Issue.record("SamePolicy is not ambiguous")
      return
    }
    #expect(names == ["ModA.SamePolicy", "ModB.SamePolicy"])
    #expect(PolicyRegistry.lookup("ModB.SamePolicy") == B.self)
    #expect(PolicyRegistry.lookup("Same") == nil)
    #expect(PolicyRegistry.lookup("amePolicy") == nil)
    #expect(PolicyRegistry.lookup("MapRuntimeTests.HookRecorder") == HookRecorder.self)
    #expect(PolicyRegistry.lookup("HookRecorder") == HookRecorder.self)

    for (name, text) in [
      (
        "SamePolicy",
        "Couldn't create mapping policy for class named SamePolicy: the name is ambiguous, it could be ModA.SamePolicy or ModB.SamePolicy; write the module-qualified name"
      ),
      (
        "Nope.HookRecorder",
        "Couldn't create mapping policy for class named Nope.HookRecorder: no policy of that name is registered"
      ),
    ] {
      var failure: MigrationFailure?
      do throws(MigrationFailure) { _ = try PolicyTestPlans.manager(PolicyTestPlans.plan(policy: name)) } catch {
        failure = error
      }
      let errors = try #require(failure).errors
      #expect(errors.count == 2)  // one per mapping naming it
      #expect(errors.allSatisfy { $0.code == "run-unknown-policy" && $0.message.hasPrefix(text) }, "\(errors)")
    }
  }

  @Test func valueConveniences() {
    let s: Value = "text"
    let i: Value = 42
    let d: Value = 2.5
    let b: Value = true
    let a: Value = ["x", 1]
    #expect(i.intValue == 42 && b.intValue == 1 && s.intValue == nil)
    #expect(d.doubleValue == 2.5 && i.doubleValue == 42 && Value.decimal("1.25").doubleValue == 1.25)
    #expect(b.boolValue == true && Value.int(0).boolValue == false && s.boolValue == nil)
    #expect(a.arrayValue?.count == 2)
    #expect(
      Value(Date(timeIntervalSinceReferenceDate: 86_400)).dateValue == Date(timeIntervalSinceReferenceDate: 86_400))
    #expect(Value(nil as String?).isNull)
    let r = ObjectRef(entity: 1, row: 2)
    #expect(Value.array([.destinationObject(r), .null, .sourceObject(r)]).destinationObjects == [r])
    #expect(Value.sourceObject(r).sourceObjects == [r] && Value.sourceObject(r).destinationObject == nil)
    if case .string(.native("text")) = s {} else { Issue.record("string literal") }
  }
}
