import Foundation
import MapRuntime
import MapSwiftSchema
import Testing

/// Swift source past mapc's limits (Specs/limits.md, "Swift source") is refused with a
/// diagnostic at its place, never a crash; nesting mapc reads costs time linear in the text
/// (swift-syntax alone takes 2^depth on nested `[`: 2.3 s at depth 22).
@Suite struct SwiftSourceLimitTests {
  static let model = "@Model final class A {\n  var x: Int = 0\n}\n"

  static func read(_ text: String) -> (SwiftSchema?, [Diagnostic]) {
    do {
      return (try SwiftSchema.read(sources: [(path: "Deep.swift", text: text)], name: "Deep"), [])
    } catch {
      return (nil, error.diagnostics)
    }
  }

  static func place(_ d: Diagnostic?) -> String {
    guard let l = d?.location else { return "none" }
    return "\(l.file):\(l.line):\(l.column)"
  }

  static func seconds(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// 1,000 levels of `[`: refused at once, at the bracket that opens the 101st level (the
  /// `{` of `S` is the first: the 100th `[`, column 10 + 99 of line 5).
  @Test func arrayTypeNestedAThousandDeep() {
    let text =
      Self.model + "struct S {\n  var y: " + String(repeating: "[", count: 1000) + "Int"
      + String(repeating: "]", count: 1000) + "\n}\n"
    var found: [Diagnostic] = []
    let time = Self.seconds { found = Self.read(text).1 }
    #expect(found.map(\.id) == ["swift-too-deep"])
    #expect(Self.place(found.first) == "Deep.swift:5:\(10 + 99)")
    #expect(found.first?.message.contains("100 levels") == true)
    #expect(time < 2)
  }

  /// `Int` and 50,000 `?`: no bracket, but a syntax tree 50,000 deep; refused on line 5.
  @Test func fiftyThousandQuestionMarks() {
    let text = Self.model + "struct S {\n  var y: Int" + String(repeating: "?", count: 50_000) + "\n}\n"
    let found = Self.read(text).1
    #expect(found.map(\.id) == ["swift-too-deep"])
    #expect(found.first?.location?.line == 5)
    #expect(found.first?.message.contains("1000 levels") == true)
  }

  /// Other shapes that crashed or would: member chains, `try` and `->` runs, generic
  /// arguments inside `[`.
  @Test func otherDeepShapes() {
    let shapes = [
      "let z = a" + String(repeating: ".b", count: 50_000),
      "let z = " + String(repeating: "try ", count: 50_000) + "f()",
      "struct S { var y: " + String(repeating: "(Int) -> ", count: 50_000) + "Int }",
      "struct S { var y: [" + String(repeating: "Optional<", count: 1000) + "Int"
        + String(repeating: ">", count: 1000) + "] }",
      "let z = " + String(repeating: "{", count: 5000) + String(repeating: "}", count: 5000),
    ]
    for shape in shapes {
      let found = Self.read(Self.model + shape + "\n").1
      #expect(found.map(\.id) == ["swift-too-deep"], "\(shape.prefix(30))")
      #expect(found.first?.location?.line == 4)
    }
  }

  /// `[` left open, 60 deep (the fuzzer's find: `import Swif[[[…tData`, which took 2^depth), at
  /// the end of the file or closed by another bracket: the parser's error at once, the one it
  /// gives for 3 left open (masked up to where they close, as a `[…]` that closes is).
  @Test func bracketsLeftOpenAreReadQuickly() {
    let shapes: [(Int) -> String] = [
      { "import Swif" + String(repeating: "[", count: $0) + "tData\n" + Self.model },
      { Self.model + "let z = (" + String(repeating: "[", count: $0) + "1)\n" },
      { Self.model + "struct S { var y: " + String(repeating: "[", count: $0) + "Int }\n" },
    ]
    for shape in shapes {
      var found: [Diagnostic] = []
      let time = Self.seconds { found = Self.read(shape(60)).1 }
      let three = Self.read(shape(3)).1
      #expect(found.map(\.id) == ["swift-syntax"], "\(shape(3))")
      #expect(found.map(\.message) == three.map(\.message))
      // The same place, after 57 more brackets where the error comes after them.
      let (a, b) = (found.first?.location, three.first?.location)
      #expect(a?.line == b?.line && [b?.column, (b?.column).map { $0 + 57 }].contains(a?.column))
      #expect(time < 2)
    }
  }

  /// Depth 30 of `[` (which swift-syntax alone would take hours for) in a struct outside any
  /// @Model, in an initial value, and as a model's Transformable: read in well under a second,
  /// the written type kept whole.
  @Test func depthThirtyIsReadQuickly() throws {
    let type = String(repeating: "[", count: 30) + "Int" + String(repeating: "]", count: 30)
    let value = String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30)
    let text = """
      @Model final class A {
        @Attribute(.transformable(by: "T")) var deep: \(type)?
        var n: Int = 0
      }
      struct Outside { var y: \(type) = \(value) }
      let z = \(value)
      """
    var result: SwiftSchema?
    var found: [Diagnostic] = []
    let time = Self.seconds { (result, found) = Self.read(text) }
    #expect(found.isEmpty)
    #expect(time < 1)
    let deep = result?.versions.first?.model.entities.first?.attributes.first
    #expect(deep?.customClassName == type)
    #expect(deep?.type == .transformable)
  }

  /// The element type inside nested brackets still decides: `[[[Int]]]` is refused as
  /// unsupported, named in full, and a struct's nested array is Binary, as without the masking.
  @Test func nestedArraysKeepTheirMeaning() {
    let text = """
      @Model final class A {
        var grid: [[[ Int ]]]
        init() {}
      }
      """
    let found = Self.read(text).1
    #expect(found.map(\.id) == ["swift-unsupported-type"])
    #expect(found.first?.message.contains("[[[Int]]]") == true)
    #expect(Self.place(found.first) == "Deep.swift:2:7")
  }

  /// Brackets, string literals and comments: nothing inside a string or comment counts, and a
  /// place after a masked part spanning lines keeps its line.
  @Test func stringsCommentsAndLines() {
    let deep = String(repeating: "[", count: 200)
    let text = """
      // \(deep)
      /* \(deep) /* nested */ \(deep) */
      let s = "\(deep)\\(f("\(deep)"))"
      let r = #"\(deep)"#
      let m = \"\"\"
        \(deep)
        \"\"\"
      let g = [[[[
        1
      ]]]]
      @Model final class A {
        var x: Int = 0
        var bad: Nope
      }
      """
    let found = Self.read(text).1
    #expect(found.map(\.id) == ["swift-unknown-type"])
    #expect(Self.place(found.first) == "Deep.swift:13:7")
  }

  /// The work budget: a file of more steps than `stepBudget` is refused where the count ran out.
  @Test func stepBudget() {
    let text = Self.model + String(repeating: "let a = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9\n", count: 120_000)
    let found = Self.read(text).1
    #expect(found.map(\.id) == ["swift-too-complex"])
    #expect((found.first?.location?.line ?? 0) > 4)
  }
}
