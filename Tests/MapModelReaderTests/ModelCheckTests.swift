import MapRuntime
import MapSyntax
import Testing

/// Broken models: each must fail with a precise diagnostic (id, line, column).
@Suite struct ModelCheckTests {
  private func only(_ diagnostics: [Diagnostic], _ id: String) -> Diagnostic? {
    let matching = diagnostics.filter { $0.id == id }
    #expect(matching.count == 1, "expected one \(id) in \(diagnostics)")
    return matching.first
  }

  @Test func unknownAttributeType() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A">
          <attribute name="x" attributeType="Integer 128"/>
          </entity>
          """), "model-unknown-attribute-type"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 4, column: 36))
    #expect(d.message.contains("Integer 128"))
  }

  @Test func relationshipToMissingEntity() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A">
          <relationship name="b" maxCount="1" destinationEntity="Ghost"/>
          </entity>
          """), "model-unknown-entity"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 4, column: 56))
    #expect(d.message.contains("Ghost"))
  }

  @Test func oneSidedInverse() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A">
          <relationship name="b" maxCount="1" destinationEntity="B" inverseName="a" inverseEntity="B"/>
          </entity>
          <entity name="B">
          <relationship name="a" maxCount="1" destinationEntity="A" inverseName="other" inverseEntity="A"/>
          <relationship name="other" maxCount="1" destinationEntity="A"/>
          </entity>
          """), "model-inverse-mismatch"))
    // Reported on A.b (line 4), whose inverse B.a points at A.other instead.
    #expect(d.location == SourceLocation(file: "m/contents", line: 4, column: 72))
    #expect(d.notes.first?.location == SourceLocation(file: "m/contents", line: 7, column: 1))
  }

  @Test func inverseThatDoesNotExist() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A">
          <relationship name="b" maxCount="1" destinationEntity="B" inverseName="nope" inverseEntity="B"/>
          </entity>
          <entity name="B"/>
          """), "model-unknown-inverse"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 4, column: 72))
  }

  @Test func inheritanceCycle() throws {
    let errors = loadErrors(
      """
      <entity name="A" parentEntity="C"/>
      <entity name="B" parentEntity="A"/>
      <entity name="C" parentEntity="B"/>
      """)
    let d = try #require(only(errors, "model-inheritance-cycle"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 3, column: 32))
    #expect(d.message.contains("A → C → B → A"))
  }

  @Test func duplicateProperty() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A">
          <attribute name="x" attributeType="String"/>
          <relationship name="x" maxCount="1" destinationEntity="A" inverseName="x" inverseEntity="A"/>
          </entity>
          """), "model-duplicate-property"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 5, column: 21))
    #expect(d.notes.first?.location == SourceLocation(file: "m/contents", line: 4, column: 1))
  }

  @Test func propertyRedeclaredFromParent() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="Base" isAbstract="YES">
          <attribute name="title" attributeType="String"/>
          </entity>
          <entity name="Child" parentEntity="Base">
          <attribute name="title" optional="YES" attributeType="String"/>
          </entity>
          """), "model-duplicate-property"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 7, column: 18))
    #expect(d.message.contains("inherits from 'Base'"))
  }

  @Test func duplicateEntity() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A"/>
          <entity name="A"/>
          """), "model-duplicate-entity"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 4, column: 15))
  }

  /// Plans hold at most `ObjectModel.maximumEntityCount` entities; a model with one more is
  /// refused at the first entity beyond, one with exactly that many loads.
  @Test func tooManyEntities() throws {
    let limit = ObjectModel.maximumEntityCount
    func body(_ n: Int) -> String { (0..<n).map { "<entity name=\"E\($0)\"/>" }.joined(separator: "\n") }
    guard case .success(let loaded) = loadModel(modelText(body(limit))) else {
      Issue.record("a model with \(limit) entities was refused")
      return
    }
    #expect(loaded.model.entities.count == limit)
    let d = try #require(only(loadErrors(body(limit + 1)), "model-too-many-entities"))
    #expect(d.message == "the model has 65536 entities; mapc migrates models of at most 65535")
    #expect(d.location == SourceLocation(file: "m/contents", line: 3 + limit, column: 1))
  }

  @Test func badDefaults() throws {
    let errors = loadErrors(
      """
      <entity name="A">
      <attribute name="n" attributeType="Integer 16" defaultValueString="70000"/>
      <attribute name="d" attributeType="Double" defaultValueString="abc"/>
      <attribute name="b" attributeType="Boolean" defaultValueString="maybe"/>
      <attribute name="t" attributeType="Date" defaultValueString="yesterday"/>
      </entity>
      """)
    // "abc" for a Double is read as Foundation reads it (0), with a warning: a model Xcode
    // accepts is not refused (lenientDefaults).
    #expect(
      errors.map(\.id) == [
        "model-invalid-default", "model-lenient-default", "model-invalid-default", "model-invalid-default",
      ])
    #expect(errors.map { $0.location?.line } == [4, 5, 6, 7])
    #expect(errors.first?.location?.column == 68)
  }

  /// apptentive's ATDataModel 2–6 give an Integer 32 the default "YES"; Xcode compiled them and
  /// Core Data wrote stores with them (../shared/stores). Such text is a warning naming the
  /// value mapc uses (NSString's integerValue/doubleValue of the text), never an error.
  @Test func lenientDefaults() throws {
    guard
      case .success(let loaded) = loadModel(
        modelText(
          """
          <entity name="A">
          <attribute name="i" attributeType="Integer 32" defaultValueString="YES"/>
          <attribute name="j" attributeType="Integer 16" defaultValueString=" -12abc"/>
          <attribute name="d" attributeType="Double" defaultValueString="2.5kg"/>
          </entity>
          """))
    else {
      Issue.record("a model with lenient defaults was refused")
      return
    }
    let a = try #require(loaded.model.entity(named: "A"))
    #expect(a.attribute(named: "i")?.defaultValue == .integer(0))
    #expect(a.attribute(named: "j")?.defaultValue == .integer(-12))
    #expect(a.attribute(named: "d")?.defaultValue == .double(2.5))
    #expect(loaded.warnings.map(\.id) == Array(repeating: "model-lenient-default", count: 3))
    #expect(
      loaded.warnings.first?.message.contains("default value \"YES\" is not a valid Integer 32; mapc uses 0") == true)
  }

  @Test func badBounds() throws {
    let errors = loadErrors(
      """
      <entity name="A">
      <attribute name="s" attributeType="String" minValueString="-1"/>
      <attribute name="n" attributeType="Integer 32" minValueString="5" maxValueString="2"/>
      </entity>
      """)
    #expect(errors.map(\.id) == ["model-invalid-bound", "model-invalid-bound"])
    #expect(errors.first?.location == SourceLocation(file: "m/contents", line: 4, column: 60))
    #expect(errors.last?.location == SourceLocation(file: "m/contents", line: 5, column: 83))
  }

  @Test func toOneWithMaxCountOtherThanOne() throws {
    let d = try #require(
      only(
        loadErrors(
          """
          <entity name="A">
          <relationship name="b" maxCount="3" destinationEntity="A" inverseName="b" inverseEntity="A"/>
          </entity>
          """), "model-to-one-max-count"))
    #expect(d.location == SourceLocation(file: "m/contents", line: 4, column: 34))
  }

  @Test func missingRequiredAttribute() throws {
    let errors = loadErrors(
      """
      <entity name="A">
        <attribute name="x"/>
      </entity>
      <entity representedClassName="Nameless"/>
      """)
    #expect(errors.map(\.id) == ["model-untyped-attribute", "model-missing-attribute"])
    #expect(
      errors.map(\.location) == [
        SourceLocation(file: "m/contents", line: 4, column: 3),
        SourceLocation(file: "m/contents", line: 6, column: 1),
      ])
    #expect(errors.first?.message.contains("attributeType") == true)
  }

  @Test func everyErrorIsReportedAtOnce() throws {
    let errors = loadErrors(
      """
      <entity name="A" parentEntity="Missing">
      <attribute name="x" attributeType="Strang"/>
      <relationship name="r" maxCount="1" destinationEntity="Nowhere"/>
      </entity>
      <fetchRequest name="F" entity="Gone"/>
      <configuration name="C"><memberEntity name="Lost"/></configuration>
      """)
    #expect(
      errors.map(\.id) == [
        "model-unknown-entity", "model-unknown-attribute-type", "model-unknown-entity",
        "model-unknown-entity", "model-unknown-entity",
      ])
    #expect(errors.map { $0.location?.line } == [3, 4, 5, 7, 8])
  }

  @Test func missingInverseIsAWarning() throws {
    let loaded = try loadModel(
      modelText(
        """
        <entity name="A">
        <relationship name="b" optional="YES" maxCount="1" destinationEntity="A"/>
        </entity>
        """)
    ).get()
    #expect(loaded.warnings.map(\.id) == ["model-missing-inverse"])
    #expect(loaded.warnings.first?.severity == .warning)
    #expect(loaded.warnings.first?.location == SourceLocation(file: "m/contents", line: 4, column: 1))
  }

  @Test func notAModel() throws {
    switch loadModel("<plist version=\"1.0\"/>") {
    case .success: Issue.record("loaded")
    case .failure(let e):
      #expect(e.diagnostics.map(\.id) == ["model-root"])
      #expect(e.diagnostics.first?.location == SourceLocation(file: "m/contents", line: 1, column: 1))
    }
  }
}
