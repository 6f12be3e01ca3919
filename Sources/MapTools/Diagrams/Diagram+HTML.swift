/// A standalone HTML page: the SVG that `dot` laid out, inline (no script, no external file), a
/// legend of the marks, and the change list as text.
extension Diagram {
  /// Text for a `<pre>`: markup characters escaped, line ends kept, other controls dropped.
  static func preformatted(_ s: String) -> String {
    s.split(separator: "\n", omittingEmptySubsequences: false).map { html(String($0)) }.joined(separator: "\n")
  }

  public func html(svg: String, summary: String) -> String {
    // The SVG without its XML prolog and DOCTYPE, which cannot appear inside HTML.
    let body = svg.range(of: "<svg").map { String(svg[$0.lowerBound...]) } ?? svg
    var legend = ""
    for mark in [Mark.added, .removed, .renamed, .changed] {
      let (fill, line) = Self.colours(mark)
      legend +=
        "<span class=\"mark\" style=\"background:\(fill);border-color:\(line);color:\(line)\">\(Self.prefix(mark))\(mark.rawValue)</span>\n"
    }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>\(Self.html(title))</title>
      <style>
      body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #1f2328; }
      .mark { display: inline-block; border: 1px solid; border-radius: 4px; padding: 1px 6px; margin-right: 6px; font-size: 12px; }
      .diagram svg { max-width: 100%; height: auto; }
      pre { background: #f6f8fa; padding: 8px; white-space: pre-wrap; }
      </style>
      </head>
      <body>
      <h1>\(Self.html(title))</h1>
      <p class="legend">\(legend)</p>
      <div class="diagram">
      \(body)
      </div>
      <pre>\(Self.preformatted(summary))</pre>
      </body>
      </html>

      """
  }
}
