import MapSyntax
import MapTestSupport
import MapRuntime
import PropertyBased
import Testing

/// parse(print(tree)) == tree (Booleans read back as the integers they print as, 1 and 0) for
/// random canonical trees, and no crash on random text.
@Suite struct ExpressionPropertyTests {
  static let expressions = Generator<Expression, [Expression]>(
    run: { rng in
      var trees = RandomExpressionTrees(rng: SplitMix64(seed: rng.next()))
      return trees.expression(depth: 5)
    },
    shrink: { $0.children })

  static let predicates = Generator<Predicate, [Predicate]>(
    run: { rng in
      var trees = RandomExpressionTrees(rng: SplitMix64(seed: rng.next()))
      return trees.predicate(depth: 4)
    },
    shrink: { $0.children })

  @Test func printedExpressionsParseBackToTheSameTree() async {
    await propertyCheck(count: 1500, input: Self.expressions) { tree in
      let printed = tree.description
      do {
        let parsed = try ExpressionParser.parseExpression(printed)
        #expect(parsed == tree.numericBooleans, "printed: \(printed)")
        #expect(parsed.description == printed)
      } catch {
        Issue.record("\(printed) does not parse: \(error)")
      }
    }
  }

  @Test func printedPredicatesParseBackToTheSameTree() async {
    await propertyCheck(count: 1500, input: Self.predicates) { tree in
      let printed = tree.description
      do {
        let parsed = try ExpressionParser.parsePredicate(printed)
        #expect(parsed == tree.numericBooleans, "printed: \(printed)")
        #expect(parsed.description == printed)
      } catch {
        Issue.record("\(printed) does not parse: \(error)")
      }
    }
  }

  /// Trees exactly as high as the limit print to text that parses back; one level more is
  /// refused. (The canonical text of such trees nests up to twice as deep as the tree is high.)
  @Test func treesAtTheHeightLimitRoundTrip() async {
    let spines = Generator<Expression, Shrink.None<Expression>>(run: { rng in
      var trees = RandomExpressionTrees(rng: SplitMix64(seed: rng.next()))
      return trees.spine(height: ExpressionParser.maxDepth)
    })
    await propertyCheck(count: 60, input: spines) { tree in
      #expect(tree.height == ExpressionParser.maxDepth)
      let printed = tree.description
      // A wide random tree can print longer than the input limit: then length is refused first.
      guard printed.utf8.count < ExpressionParser.maxInputBytes - 16 else {
        let error = #expect(throws: ExpressionSyntaxError.self) { try ExpressionParser.parseExpression(printed) }
        #expect(error?.rule == .tooLong)
        return
      }
      do {
        #expect(try ExpressionParser.parseExpression(printed) == tree.numericBooleans)
      } catch {
        Issue.record("\(printed) does not parse: \(error)")
      }
      let higher = Expression(.function(name: "abs:", arguments: [tree]))
      let error = #expect(throws: ExpressionSyntaxError.self) {
        try ExpressionParser.parseExpression(higher.description)
      }
      #expect(error?.rule == .tooDeep)
    }
  }

  static let pieces = [
    "a", "b", "$x", "(", ")", "{", "}", "[", "]", ",", ".", "+", "-", "*", "/", "**", "==", "=", "!=",
    "<", ">", "<=", "=>", "AND", "&&", "OR", "NOT", "!", "ANY", "ALL", "1", "2.5", "-3", "0x1F", "1e400",
    "'s'", "\"t\"", "FUNCTION(", "FETCH(", "CAST(", "TERNARY(", "SUBQUERY(", "now()", "uppercase:(",
    "add:to:(", "@count", "#size", ":=", "UNION", "MINUS", "FIRST", "LAST", "[c]", "[cd]", "IN",
    "BETWEEN", "CONTAINS", "nil", "YES", "NO", "SELF", "TRUEPREDICATE", "\"valueForKey:\"", "'NSDate'",
    " ", " ", "%@", "\\", "'", "\"", ":", "é", "\u{0}", "\n",
  ]

  /// Random text made of grammar pieces: parsing never crashes, and whatever parses is
  /// printed to a text that parses back to the same tree.
  static let soup = Generator<String, Shrink.None<String>>(run: { rng in
    let count = Int.random(in: 1...30, using: &rng)
    return (0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined()
  })

  @Test func randomTextNeverCrashesAndWhatParsesRoundTrips() async {
    await propertyCheck(count: 3000, input: Self.soup) { text in
      if let e = try? ExpressionParser.parseExpression(text) {
        let again = try? ExpressionParser.parseExpression(e.description)
        #expect(again == e.numericBooleans, "\(text) printed as \(e)")
      }
      if let p = try? ExpressionParser.parsePredicate(text) {
        let again = try? ExpressionParser.parsePredicate(p.description)
        #expect(again == p.numericBooleans, "\(text) printed as \(p)")
      }
    }
  }

  /// The canonical text of a random tree with one to three random edits (a piece inserted, a
  /// character deleted, two characters swapped).
  static let mutatedTexts = Generator<String, Shrink.None<String>>(run: { rng in
    var trees = RandomExpressionTrees(rng: SplitMix64(seed: rng.next()))
    let asPredicate = Bool.random(using: &rng)
    var scalars = Array(
      (asPredicate ? trees.predicate(depth: 3).description : trees.expression(depth: 4).description)
        .unicodeScalars)
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      let at = Int.random(in: 0...scalars.count, using: &rng)
      switch Int.random(in: 0...2, using: &rng) {
      case 0: scalars.insert(contentsOf: pieces.randomElement(using: &rng)!.unicodeScalars, at: at)
      case 1: if at < scalars.count { scalars.remove(at: at) }
      default: if at + 1 < scalars.count { scalars.swapAt(at, at + 1) }
      }
    }
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars)
    return String(text)
  })

  @Test func mutatedCanonicalTextNeverCrashesAndWhatParsesRoundTrips() async {
    await propertyCheck(count: 3000, input: Self.mutatedTexts) { text in
      for asPredicate in [false, true] {
        do {
          if asPredicate {
            let p = try ExpressionParser.parsePredicate(text)
            #expect(
              (try? ExpressionParser.parsePredicate(p.description)) == p.numericBooleans, "\(text) printed as \(p)")
          } else {
            let e = try ExpressionParser.parseExpression(text)
            #expect(
              (try? ExpressionParser.parseExpression(e.description)) == e.numericBooleans, "\(text) printed as \(e)")
          }
        } catch let error as ExpressionSyntaxError {
          #expect(error.span.start >= 0 && error.span.start <= error.span.end)
          #expect(error.span.end <= text.utf8.count)
        } catch {
          Issue.record("unexpected error type: \(error)")
        }
      }
    }
  }

  /// Arbitrary Unicode text, including unpaired quotes and control characters.
  @Test func randomUnicodeNeverCrashes() async {
    let alphabet = Array("aZ09_$@#%.'\"\\(){}[],+-*/=!<>&|:; \n\té🎸\u{0}\u{301}xyzFN".unicodeScalars)
    let texts = Generator<String, Shrink.None<String>>(run: { rng in
      let count = Int.random(in: 0...40, using: &rng)
      var text = String.UnicodeScalarView()
      for _ in 0..<count { text.append(alphabet.randomElement(using: &rng)!) }
      return String(text)
    })
    await propertyCheck(count: 2000, input: texts) { text in
      do {
        let e = try ExpressionParser.parseExpression(text)
        #expect((try? ExpressionParser.parseExpression(e.description)) == e.numericBooleans)
      } catch let error as ExpressionSyntaxError {
        #expect(error.span.start >= 0 && error.span.end <= text.utf8.count)
      } catch {
        Issue.record("unexpected error type: \(error)")
      }
    }
  }
}
