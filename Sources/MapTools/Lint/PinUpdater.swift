#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MapCompiler
import MapRuntime

/// `mapc lint --update-pins`: records the models' current hashes in a mapping file.
///
/// `<sourceModel>` and `<destinationModel>` get `versionHash="…"` (the model hash,
/// `PinCheck.modelHash`) and one `<entityVersionHash entity="…" hash="…"/>` child per entity,
/// sorted by name; older `<entityVersionHash>` children are replaced. The file is edited as
/// text, so every other byte (formatting, comments, attribute order) stays as it was, and it is
/// replaced atomically.
public enum PinUpdater {
  public enum Outcome: Sendable, Equatable {
    case updated
    case unchanged
    /// The models could not be loaded (the diagnostics of the lint say why).
    case failed(String)
  }

  public static func update(mappingPath path: String) -> Outcome {
    let compiled = MappingCompilation.compile(mappingPath: path)
    guard let document = compiled.document, let models = compiled.models else {
      return .failed("\(path): cannot update pins: the mapping or its models do not load; fix the errors first")
    }
    guard let data = FileManager.default.contents(atPath: path) else { return .failed("\(path): cannot read the file") }
    let text = String(decoding: data, as: UTF8.self)
    guard let newText = rewrite(text, document: document, models: models) else {
      return .failed(
        "\(path): cannot update pins: <sourceModel>/<destinationModel> not found where the reader saw them")
    }
    if newText == text { return .unchanged }
    do {
      try AtomicFileWriter.replaceContents(of: path, with: newText)
    } catch {
      return .failed("\(path): cannot write the file: \(error)")
    }
    return .updated
  }

  /// The file text with both model references pinned; nil when an element cannot be found.
  static func rewrite(_ text: String, document: MappingDocument, models: MappingCompiler.Models) -> String? {
    var edits: [(Range<String.Index>, String)] = []
    let newline = text.contains("\r\n") ? "\r\n" : "\n"
    for (reference, name, hashes) in [
      (document.sourceModel, "sourceModel", models.sourceHashes),
      (document.destinationModel, "destinationModel", models.destinationHashes),
    ] {
      guard let reference else { continue }
      guard let edit = pinEdit(text, at: reference.location, element: name, hashes: hashes, newline: newline) else {
        return nil
      }
      edits.append(edit)
    }
    var result = text
    for (range, replacement) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
      result.replaceSubrange(range, with: replacement)
    }
    return result
  }

  /// The index of a line and column (Unicode scalars).
  static func index(in text: String, line: Int, column: Int) -> String.Index? {
    var l = 1
    var i = text.unicodeScalars.startIndex
    let scalars = text.unicodeScalars
    while l < line {
      guard let nl = scalars[i...].firstIndex(of: "\n") else { return nil }
      i = scalars.index(after: nl)
      l += 1
    }
    for _ in 1..<max(column, 1) {
      guard i < scalars.endIndex else { return nil }
      i = scalars.index(after: i)
    }
    return i
  }

  /// The replacement of one model reference element, from its `<` to the end of its end tag.
  private static func pinEdit(
    _ text: String, at location: SourceLocation, element: String, hashes: [EntityHash], newline: String
  ) -> (Range<String.Index>, String)? {
    let s = text.unicodeScalars
    guard let start = index(in: text, line: location.line, column: location.column),
      text[start...].hasPrefix("<" + element)
    else { return nil }
    // The start tag's end: the first `>` outside quotes.
    var i = start
    var quote: Unicode.Scalar?
    while i < s.endIndex {
      let c = s[i]
      if let q = quote {
        if c == q { quote = nil }
      } else if c == "\"" || c == "'" {
        quote = c
      } else if c == ">" {
        break
      }
      i = s.index(after: i)
    }
    guard i < s.endIndex else { return nil }
    let tagClose = i  // the `>`
    let selfClosing = s[s.index(before: tagClose)] == "/"
    var attributesEnd = selfClosing ? s.index(before: tagClose) : tagClose
    while attributesEnd > start, [" ", "\t", "\n", "\r"].contains(s[s.index(before: attributesEnd)]) {
      attributesEnd = s.index(before: attributesEnd)
    }
    var tag = String(text[start..<attributesEnd])
    let blanksBeforeClose = String(text[attributesEnd..<(selfClosing ? s.index(before: tagClose) : tagClose)])
    let modelHash = PinCheck.modelHash(hashes)
    tag = setAttribute(tag, name: "versionHash", value: modelHash)

    // Content and end tag.
    let afterTag = s.index(after: tagClose)
    var content = ""
    var end = afterTag
    if !selfClosing {
      guard let close = findEndTag(text, from: afterTag, element: element) else { return nil }
      content = removePins(String(text[afterTag..<close.lowerBound]))
      end = close.upperBound
    }
    // Indentation of the element's line.
    let lineStart = text[..<start].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    let indent = String(text[lineStart..<start].prefix { $0 == " " || $0 == "\t" })
    let unit = indent.contains("\t") ? "\t" : "  "
    var kept = content
    while let last = kept.unicodeScalars.last, [" ", "\t", "\n", "\r"].contains(last) {
      kept.unicodeScalars.removeLast()
    }
    var out = tag + blanksBeforeClose + ">" + kept
    for h in hashes.sorted(by: { $0.entity < $1.entity }) {
      out += newline + indent + unit
      out += "<entityVersionHash entity=\"\(escape(h.entity))\" hash=\"\(Data(h.hash).base64EncodedString())\"/>"
    }
    out += newline + indent + "</\(element)>"
    return (start..<end, out)
  }

  /// Sets or adds an attribute in a start tag's text (`<name a="…" …`, without `>`).
  static func setAttribute(_ tag: String, name: String, value: String) -> String {
    let pattern = "(\\s)\(name)(\\s*=\\s*)(\"[^\"]*\"|'[^']*')"
    if let regex = try? NSRegularExpression(pattern: pattern),
      let m = regex.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)),
      let r = Range(m.range(at: 3), in: tag)
    {
      var t = tag
      t.replaceSubrange(r, with: "\"\(escape(value))\"")
      return t
    }
    return tag + " \(name)=\"\(escape(value))\""
  }

  /// The range of `</element>` (up to its `>`), skipping comments.
  static func findEndTag(_ text: String, from: String.Index, element: String) -> Range<String.Index>? {
    var i = from
    while i < text.endIndex {
      if text[i...].hasPrefix("<!--") {
        guard let end = text.range(of: "-->", range: i..<text.endIndex) else { return nil }
        i = end.upperBound
        continue
      }
      if text[i...].hasPrefix("</" + element) {
        guard let gt = text[i...].firstIndex(of: ">") else { return nil }
        return i..<text.index(after: gt)
      }
      i = text.index(after: i)
    }
    return nil
  }

  /// The content without its `<entityVersionHash …/>` elements (and the blanks before them).
  static func removePins(_ content: String) -> String {
    guard
      let regex = try? NSRegularExpression(
        pattern: "[ \\t]*(\\r?\\n)?[ \\t]*<entityVersionHash\\b[^>]*?(/>|>\\s*</entityVersionHash\\s*>)")
    else { return content }
    func strip(_ s: String) -> String {
      regex.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "")
    }
    // Comments are kept as they are: match only outside them.
    var result = ""
    var rest = Substring(content)
    while let open = rest.range(of: "<!--") {
      result += strip(String(rest[..<open.lowerBound]))
      guard let close = rest.range(of: "-->", range: open.upperBound..<rest.endIndex) else {
        return result + rest[open.lowerBound...]
      }
      result += rest[open.lowerBound..<close.upperBound]
      rest = rest[close.upperBound...]
    }
    return result + strip(String(rest))
  }

  /// Attribute text, escaped as the mapping writer escapes it (`>` and line breaks included).
  static func escape(_ s: String) -> String { MappingTextWriter.attribute(s) }
}
