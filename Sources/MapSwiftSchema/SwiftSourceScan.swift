/// mapc's own pass over a Swift file before swift-syntax parses it (Specs/limits.md, "Swift
/// source"): one walk over the bytes that knows comments, string literals (raw, multi-line,
/// interpolated) and brackets. It
///
/// - refuses nesting deeper than `maximumDepth`: brackets `(` `[` `{`, generic arguments `<…>`,
///   `#if`, and runs of the prefixes and arrows swift-syntax parses by recursion (`try try …`,
///   `(A) -> (B) -> …`), so that the parser's recursion (its look-ahead has no limit of its
///   own) stays shallow;
/// - counts steps, one per token and one per 16 bytes of comments and string literals, against
///   the file's budget (`SwiftSourceFile.stepBudget`);
/// - finds where swift-syntax would take exponential time, and masks it. At each `[` it looks
///   ahead for an InlineArray type (`[3 of Int]`): it reads the element type once looking for
///   `of`, and once more as an array or dictionary element, so each `[` directly inside another
///   doubles the work (2^depth: 2.3 s at depth 22, 38 s at 26). The inside of each `[…]` that
///   is itself inside a `[…]` and holds another `[` is given to the parser as one identifier of
///   underscores of the same length (so every byte offset is kept): swift-syntax never sees
///   more than two levels of `[`, and reads each token a bounded number of times. The text of a
///   masked part is parsed on its own (with the same scan) when mapc needs the type written
///   there (`SwiftSourceFile.maskedType(at:)`).
struct SwiftSourceScan {
  struct Failure: Error {
    enum Kind {
      case tooDeep
      /// `#if` inside more than `maximumIfDepth` other `#if`.
      case ifTooDeep
      case budget
    }

    var kind: Kind
    /// The byte offset in the file where the limit was passed.
    var offset: Int
  }

  /// The deepest nesting mapc reads (brackets, generic arguments, `#if`, prefix runs).
  static let maximumDepth = 100
  /// The deepest `#if` nesting mapc reads: swift-syntax's parser gives up on `#if` nested 20
  /// deep (each level takes several of its 256 levels of nesting), with a message that names a
  /// token; mapc stops before with one that says why.
  static let maximumIfDepth = 16
  /// `#if` blocks open.
  private var ifs = 0

  /// Byte ranges given to the parser as underscores.
  private(set) var masks: [Range<Int>] = []
  /// Steps counted (tokens, and comments and strings by their length).
  private(set) var steps = 0

  private enum Opener: UInt8 {
    case paren, square, brace, angle, poundIf, interpolation
  }

  private struct Open {
    var kind: Opener
    var offset: Int
    /// The run of prefixes before it, restored when it closes (a closed group continues a run).
    var run: Int
    /// For a `[` inside one other `[`: whether a third `[` was opened inside it.
    var mask = false
    /// For an interpolation: the string literal it is in, read on when it closes.
    var string: (hashes: Int, multiline: Bool)? = nil
  }

  private let bytes: [UInt8]
  private let budget: Int
  private var stack: [Open] = []
  private var squares = 0
  /// Index in `stack` of the innermost `[` that is inside exactly one other `[`.
  private var secondSquare: Int?
  /// The current run of prefix keywords and arrows (`try`, `await`, `->`, `any`, …).
  private var run = 0
  /// String literals being read: their `#` count and whether multi-line; the innermost last.
  private var strings: [(hashes: Int, multiline: Bool)] = []

  /// Scans `bytes`; throws when the nesting or the budget is passed.
  init(_ bytes: [UInt8], budget: Int) throws(Failure) {
    self.bytes = bytes
    self.budget = budget
    try scan()
  }

  /// The identifiers swift-syntax parses by recursion when they follow each other.
  private static let prefixes: Set<[UInt8]> = Set(
    [
      "try", "await", "any", "some", "each", "repeat", "consume", "copy", "unsafe", "borrowing", "consuming",
      "inout", "sending", "isolated", "__owned", "__shared",
    ].map { Array($0.utf8) })
  /// Identifiers that neither extend nor end a run (`(A) throws -> B`).
  private static let neutral: Set<[UInt8]> = Set(["throws", "rethrows", "async"].map { Array($0.utf8) })

  private mutating func step(_ n: Int = 1, at offset: Int) throws(Failure) {
    steps += n
    if steps > budget { throw Failure(kind: .budget, offset: offset) }
  }

  private mutating func push(
    _ kind: Opener, at offset: Int, in string: (hashes: Int, multiline: Bool)? = nil
  ) throws(Failure) {
    if stack.count + run + 1 > Self.maximumDepth { throw Failure(kind: .tooDeep, offset: offset) }
    if kind == .poundIf {
      ifs += 1
      if ifs > Self.maximumIfDepth { throw Failure(kind: .ifTooDeep, offset: offset) }
    }
    stack.append(Open(kind: kind, offset: offset, run: run, string: string))
    run = 0
    if kind == .square {
      squares += 1
      if squares == 2 {
        secondSquare = stack.count - 1
      } else if squares > 2, let s = secondSquare {
        stack[s].mask = true
      }
    }
  }

  /// Removes the top entry; records its mask when it was a second-level `[` closed at `end`.
  private mutating func pop(closingAt end: Int?) {
    let open = stack.removeLast()
    run = open.run
    if open.kind == .poundIf { ifs -= 1 }
    if let string = open.string { strings.append(string) }
    if open.kind == .square {
      squares -= 1
      if secondSquare == stack.count {
        secondSquare = nil
        if open.mask, let end { masks.append((open.offset + 1)..<end) }
      }
    }
  }

  /// Generic argument lists still open (a `<` that was a less-than) end at these.
  private mutating func dropAngles() {
    while stack.last?.kind == .angle { pop(closingAt: nil) }
  }

  /// A closer: the matching opener is popped (with any left open above it); a closer that
  /// matches nothing open is ignored (the parser reports it).
  private mutating func close(_ kind: Opener, at offset: Int) {
    guard let match = stack.lastIndex(where: { $0.kind == kind }) else { return }
    // A `[` left open inside is masked up to this closer, as if it closed here.
    while stack.count > match + 1 { pop(closingAt: offset) }
    pop(closingAt: offset)
  }

  private static func isIdentifierByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x24
      || b >= 0x80
  }

  private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

  /// The number of `#` from `i`.
  private func hashes(from i: Int) -> Int {
    var n = 0
    while byte(i + n) == 0x23 { n += 1 }
    return n
  }

  private func isTripleQuote(_ i: Int) -> Bool {
    byte(i) == 0x22 && byte(i + 1) == 0x22 && byte(i + 2) == 0x22
  }

  private mutating func scan() throws(Failure) {
    try scanBytes()
    // What is still open at the end of the file (the parser reports it) is closed there: a
    // `[` left open is masked to the end, or its unclosed `[`s inside would cost the parser
    // 2^depth all the same.
    while !stack.isEmpty { pop(closingAt: bytes.count) }
  }

  private mutating func scanBytes() throws(Failure) {
    var i = 0
    let n = bytes.count
    while i < n {
      if let string = strings.last {
        i = try scanString(from: i, hashes: string.hashes, multiline: string.multiline)
        continue
      }
      let b = bytes[i]
      switch b {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
        i += 1
      case 0x2F where byte(i + 1) == 0x2F:  // `//`
        let start = i
        while i < n && bytes[i] != 0x0A && bytes[i] != 0x0D { i += 1 }
        try step(1 + (i - start) / 16, at: start)
      case 0x2F where byte(i + 1) == 0x2A:  // `/*`, nested
        let start = i
        var level = 0
        repeat {
          if byte(i) == 0x2F && byte(i + 1) == 0x2A {
            level += 1
            i += 2
          } else if byte(i) == 0x2A && byte(i + 1) == 0x2F {
            level -= 1
            i += 2
          } else {
            i += 1
          }
        } while level > 0 && i < n
        try step(1 + (i - start) / 16, at: start)
      case 0x23:  // `#`: a raw string, an extended regex literal, `#if`, `#endif`, or a directive
        let count = hashes(from: i)
        let after = i + count
        if byte(after) == 0x22 {
          try step(at: i)
          let multiline = isTripleQuote(after)
          strings.append((count, multiline))
          i = after + (multiline ? 3 : 1)
        } else if byte(after) == 0x2F {
          // `#/…/#`: to the first `/` followed by as many `#`.
          let start = i
          i = after + 1
          while i < n && !(bytes[i] == 0x2F && hashes(from: i + 1) >= count) { i += 1 }
          i = min(n, i + 1 + count)
          try step(1 + (i - start) / 16, at: start)
        } else {
          var end = after
          while end < n && Self.isIdentifierByte(bytes[end]) { end += 1 }
          let word = bytes[after..<end]
          try step(at: i)
          if count == 1 && word.elementsEqual("if".utf8) {
            try push(.poundIf, at: i)
          } else if count == 1 && word.elementsEqual("endif".utf8) {
            close(.poundIf, at: i)
          }
          i = max(end, after)
        }
      case 0x22:  // `"`
        try step(at: i)
        let multiline = isTripleQuote(i)
        strings.append((0, multiline))
        i += multiline ? 3 : 1
      case 0x28:
        try step(at: i)
        try push(.paren, at: i)
        i += 1
      case 0x5B:
        try step(at: i)
        try push(.square, at: i)
        i += 1
      case 0x7B:
        try step(at: i)
        dropAngles()
        try push(.brace, at: i)
        i += 1
      case 0x29:
        try step(at: i)
        let wasInterpolation = stack.last(where: { $0.kind != .angle })?.kind == .interpolation
        if wasInterpolation {
          close(.interpolation, at: i)
        } else {
          close(.paren, at: i)
        }
        i += 1
      case 0x5D:
        try step(at: i)
        close(.square, at: i)
        i += 1
      case 0x7D:
        try step(at: i)
        close(.brace, at: i)
        i += 1
      case 0x3C:  // `<`: a generic argument list when it follows a name directly
        try step(at: i)
        if i > 0 && Self.isIdentifierByte(bytes[i - 1]) && byte(i + 1) != 0x3C && byte(i + 1) != 0x3D {
          try push(.angle, at: i)
        } else {
          run = 0
        }
        i += 1
      case 0x3E:  // `>`
        try step(at: i)
        if i > 0 && bytes[i - 1] == 0x2D {
          // `->`: continues a run (`(A) -> (B) -> C` nests one level per arrow).
          run += 1
          if stack.count + run > Self.maximumDepth { throw Failure(kind: .tooDeep, offset: i - 1) }
        } else if stack.last?.kind == .angle && byte(i + 1) != 0x3D {
          pop(closingAt: i)
        } else {
          run = 0
        }
        i += 1
      case 0x3B, 0x2C:  // `;` `,`
        try step(at: i)
        if b == 0x3B { dropAngles() }
        run = 0
        i += 1
      case 0x3D, 0x26, 0x7C:  // `=`, `&&`, `||` end a `<` that was a less-than
        try step(at: i)
        let pair = byte(i + 1) == b
        if b == 0x3D ? !pair && (i == 0 || bytes[i - 1] != 0x3D) : pair { dropAngles() }
        run = 0
        i += pair ? 2 : 1
      case 0x3F, 0x21:  // `?` `!`: postfix ones neither extend nor end a run
        try step(at: i)
        i += 1
      default:
        if Self.isIdentifierByte(b) {
          var end = i + 1
          while end < n && Self.isIdentifierByte(bytes[end]) { end += 1 }
          let word = Array(bytes[i..<end])
          try step(at: i)
          if Self.prefixes.contains(word) {
            run += 1
            if stack.count + run > Self.maximumDepth { throw Failure(kind: .tooDeep, offset: i) }
          } else if !Self.neutral.contains(word) {
            run = 0
          }
          i = end
        } else {
          // `-` before `>` is part of an arrow; other punctuation ends a run.
          try step(at: i)
          if !(b == 0x2D && byte(i + 1) == 0x3E) { run = 0 }
          i += 1
        }
      }
    }
  }

  /// Reads string literal text from `i` to its end or to an interpolation; returns where to
  /// continue.
  private mutating func scanString(from start: Int, hashes count: Int, multiline: Bool) throws(Failure) -> Int {
    var i = start
    let n = bytes.count
    while i < n {
      let b = bytes[i]
      if b == 0x5C && hashes(from: i + 1) >= count {
        // An escape: `\(` (`\#(` in a raw string) starts an interpolation.
        let after = i + 1 + count
        if byte(after) == 0x28 {
          try step((i - start) / 16 + 1, at: i)
          let string = strings.removeLast()
          try push(.interpolation, at: after, in: string)
          return after + 1
        }
        i = after + 1
        continue
      }
      if b == 0x22 && (!multiline || isTripleQuote(i)) {
        let quotes = multiline ? 3 : 1
        if hashes(from: i + quotes) >= count {
          strings.removeLast()
          try step((i - start) / 16, at: start)
          return i + quotes + count
        }
        i += quotes
        continue
      }
      if !multiline && (b == 0x0A || b == 0x0D) {
        // Unterminated: the parser reports it; the scan goes on as code.
        strings.removeLast()
        try step((i - start) / 16, at: start)
        return i
      }
      i += 1
    }
    strings.removeLast()
    try step((i - start) / 16, at: start)
    return i
  }
}
