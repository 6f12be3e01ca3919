import Foundation
import MapTestSupport
import Testing

/// Headless Chromium's path, and whether Graphviz's dot is installed.
let browserTools: (chromium: String?, dot: Bool) = (
  ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  },
  ["/usr/bin/dot", "/usr/local/bin/dot"].contains { FileManager.default.isExecutableFile(atPath: $0) }
)

/// The pictures of `mapc diff` and `mapc dump` (Specs/model-diff.md §3), opened in headless
/// Chromium: a script in the page measures every box Graphviz drew (`g.node`) and the test checks
/// that each expected entity is drawn once, none is empty and no two overlap; a screenshot,
/// decoded by `png_ink.py`, must not be blank. The expected entities come from the model and
/// mapping files (python3's xml.etree), not from mapc. `.ci/run` installs chromium and graphviz;
/// without them the suite is skipped with a message.
@Suite(
  .enabled(
    if: browserTools.chromium != nil && browserTools.dot,
    "headless Chromium (Debian: chromium) and Graphviz (graphviz) are needed; .ci/run installs both"))
struct DiagramBrowserTests {
  static let root = SharedPaths.packageRoot
  static let chromium = browserTools.chromium

  /// What the page's script reports.
  struct Boxes: Decodable {
    var titles: [String]
    var overlaps: [[String]]
    var empty: [String]
    var width: Double
    var height: Double
  }

  static let measure = """
    <script>
    const boxes = [...document.querySelectorAll('g.node')].map(g => {
      const r = g.getBoundingClientRect();
      return {t: g.querySelector('title').textContent, x: r.left, y: r.top, w: r.width, h: r.height};
    });
    const overlaps = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5)
        overlaps.push([a.t, b.t]);
    }
    const svg = document.querySelector('svg').getBoundingClientRect();
    document.body.setAttribute('data-result', JSON.stringify({titles: boxes.map(b => b.t), overlaps,
      empty: boxes.filter(b => b.w < 1 || b.h < 1).map(b => b.t), width: svg.width, height: svg.height}));
    </script>
    """

  static func chrome(_ arguments: [String]) -> MapcResult {
    runExecutable(
      URL(fileURLWithPath: chromium!),
      ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-dev-shm-usage"] + arguments)
  }

  /// Opens `page` (an HTML or SVG file mapc wrote) with the measuring script and returns its boxes;
  /// with `screenshot`, also checks a screenshot is not blank.
  static func open(_ page: URL, screenshot: Bool) throws -> Boxes {
    let text = try String(contentsOf: page, encoding: .utf8)
    let html: String
    if page.pathExtension == "svg" {
      let svg = try #require(text.range(of: "<svg")).lowerBound
      html = "<!DOCTYPE html><html><body>" + text[svg...] + measure + "</body></html>"
    } else {
      let end = try #require(text.range(of: "</body>", options: .backwards)).lowerBound
      html = text[..<end] + measure + text[end...]
    }
    let harness = page.deletingPathExtension().appendingPathExtension("check.html")
    try Data(html.utf8).write(to: harness)
    let dom = chrome(["--dump-dom", harness.absoluteString])
    try #require(dom.exitCode == 0, "chromium: \(dom.stderr)")
    let attribute = try #require(
      dom.stdout.range(of: #"data-result="[^"]*""#, options: .regularExpression),
      "no result in the page: \(dom.stdout.prefix(500))")
    let raw = dom.stdout[attribute].dropFirst("data-result=\"".count).dropLast()
    let json = raw.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
    let boxes = try JSONDecoder().decode(Boxes.self, from: Data(json.utf8))
    if screenshot {
      let png = page.deletingPathExtension().appendingPathExtension("png")
      // An SVG is shown as an image scaled to the window, as a browser shows a linked picture.
      var shown = page
      if page.pathExtension == "svg" {
        shown = page.deletingPathExtension().appendingPathExtension("image.html")
        try Data(
          "<!DOCTYPE html><html><body style=\"margin:0\"><img src=\"\(page.lastPathComponent)\" style=\"width:100%\"></body></html>"
            .utf8
        ).write(to: shown)
      }
      let shot = chrome(["--screenshot=\(png.path)", "--window-size=800,600", shown.absoluteString])
      try #require(FileManager.default.fileExists(atPath: png.path), "no screenshot: \(shot.stderr)")
      let ink = runExecutable(
        URL(fileURLWithPath: "/usr/bin/python3"),
        [root.appendingPathComponent("Tests/MapcCLITests/Review/png_ink.py").path, png.path])
      let measured = try #require(
        try JSONSerialization.jsonObject(with: Data(ink.stdout.utf8)) as? [String: Any], "png_ink.py: \(ink.stderr)")
      let inked = (measured["inked"] as? Double) ?? 0
      #expect(inked > 0.01, "the screenshot of \(page.lastPathComponent) is blank (\(inked) drawn)")
      #expect(
        (measured["colours"] as? Int ?? 0) > 8, "the screenshot of \(page.lastPathComponent) has almost no colours")
    }
    return boxes
  }

  /// Entity names of a model version, read with python3's xml.etree.
  static func entityNames(_ contents: URL) throws -> [String] {
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/python3"),
      [
        "-c",
        "import sys, xml.etree.ElementTree as E; print('\\n'.join(e.get('name') for e in E.parse(sys.argv[1]).getroot().iter('entity')))",
        contents.path,
      ])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return r.stdout.split(separator: "\n").map(String.init)
  }

  /// Every expected title drawn exactly once, nothing empty, nothing overlapping.
  static func check(_ boxes: Boxes, expected: Set<String>, _ what: String) {
    #expect(Set(boxes.titles) == expected, "\(what): drawn \(boxes.titles.sorted()), expected \(expected.sorted())")
    #expect(boxes.titles.count == Set(boxes.titles).count, "\(what): a box is drawn twice")
    #expect(boxes.empty.isEmpty, "\(what): empty boxes \(boxes.empty)")
    #expect(boxes.overlaps.isEmpty, "\(what): overlapping boxes \(boxes.overlaps)")
    #expect(boxes.width > 100 && boxes.height > 50)
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func theDiaryStepInSVGAndHTML() throws {
    let work = try FileManagerTemp.folder("diagram-diary")
    defer { FileManagerTemp.remove(work.path) }
    let bundle = try #require(SharedPaths.fixtures).appendingPathComponent("diary/SimpleQADiary.xcdatamodeld")
    let before = try Self.entityNames(bundle.appendingPathComponent("SimpleQADiary.xcdatamodel/contents"))
    let after = try Self.entityNames(bundle.appendingPathComponent("SimpleQADiary 2.xcdatamodel/contents"))
    // The destination's entities and the removed ones.
    let expected = Set(after).union(before)
    for format in ["svg", "html"] {
      let out = work.appendingPathComponent("diary.\(format)")
      let r = runMapc(["diff", bundle.path, "--format", format, "-o", out.path])
      try #require(r.exitCode == 0, "\(r.stderr)")
      Self.check(try Self.open(out, screenshot: format == "html"), expected: expected, "diary \(format)")
    }
    let html = try String(contentsOf: work.appendingPathComponent("diary.html"), encoding: .utf8)
    #expect(!html.contains("<script"), "the HTML is standalone, without script")
    #expect(html.contains("− removed") && html.contains("+ added"))
  }

  /// A 20-entity real model: XCServerCoreData (23 entities), its first version to its current.
  @Test(.enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func aTwentyEntityRealModelInSVG() throws {
    let work = try FileManagerTemp.folder("diagram-xcs")
    defer { FileManagerTemp.remove(work.path) }
    let bundle = try #require(SharedPaths.stores).appendingPathComponent(
      "richardpiazza+XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld")
    let from = try Self.entityNames(bundle.appendingPathComponent("XCServerCoreData.xcdatamodel/contents"))
    let to = try Self.entityNames(bundle.appendingPathComponent("XCServerCoreData2.0.3.xcdatamodel/contents"))
    #expect(to.count >= 20)
    let out = work.appendingPathComponent("xcs.svg")
    let r = runMapc([
      "diff", bundle.path, "--from", "XCServerCoreData", "--to", "XCServerCoreData2.0.3", "--format", "svg", "-o",
      out.path,
    ])
    try #require(r.exitCode == 0, "\(r.stderr)")
    Self.check(try Self.open(out, screenshot: true), expected: Set(to).union(from), "XCServerCoreData svg")
  }

  /// `mapc dump --format html` of the shop mapping: source entities, one box per entity
  /// mapping, destination entities.
  @Test func aMappingInHTML() throws {
    let work = try FileManagerTemp.folder("diagram-mapping")
    defer { FileManagerTemp.remove(work.path) }
    let mapping = Self.root.appendingPathComponent("Mappings/shop/ShopV1ToV2.xml")
    let out = work.appendingPathComponent("shop.html")
    let r = runMapc(["dump", mapping.path, "--format", "html"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    try Data(r.stdout.utf8).write(to: out)
    let names = runExecutable(
      URL(fileURLWithPath: "/usr/bin/python3"),
      [
        "-c",
        """
        import sys, xml.etree.ElementTree as E
        m = E.parse(sys.argv[1]).getroot().findall('entityMapping')
        print('\\n'.join(['map_' + e.get('name') for e in m] + sorted({'src_' + e.get('source') for e in m if e.get('source')})))
        """,
        mapping.path,
      ])
    try #require(names.exitCode == 0, "\(names.stderr)")
    let destination = try Self.entityNames(
      Self.root.appendingPathComponent("Mappings/shop/Shop.xcdatamodeld/Shop 2.xcdatamodel/contents"))
    let expected = Set(names.stdout.split(separator: "\n").map(String.init) + destination.map { "dst_" + $0 })
    Self.check(try Self.open(out, screenshot: false), expected: expected, "shop mapping html")
    // Value expressions are drawn.
    #expect(r.stdout.contains("lowercase:"), "the mapping's expressions are in the picture")
  }

  /// Negative control: the page's measure finds two boxes drawn over each other.
  @Test func theOverlapCheckCanFail() throws {
    let work = try FileManagerTemp.folder("diagram-control")
    defer { FileManagerTemp.remove(work.path) }
    let svg = work.appendingPathComponent("overlap.svg")
    try Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">
      <g class="node"><title>A</title><rect x="10" y="10" width="120" height="80" fill="#dafbe1"/></g>
      <g class="node"><title>B</title><rect x="60" y="40" width="120" height="80" fill="#ffebe9"/></g>
      </svg>
      """.utf8
    ).write(to: svg)
    let boxes = try Self.open(svg, screenshot: false)
    #expect(boxes.overlaps == [["A", "B"]])
  }

  @Test func mermaidNamesEveryEntityAndMark() throws {
    let bundle = Self.root.appendingPathComponent("Mappings/shop/Shop.xcdatamodeld")
    let r = runMapc(["diff", bundle.path, "--format", "mermaid"])
    #expect(r.exitCode == 0)
    #expect(r.stdout.hasPrefix("erDiagram\n"))
    for name in try Self.entityNames(bundle.appendingPathComponent("Shop 2.xcdatamodel/contents")) {
      #expect(r.stdout.contains("  \(name) {\n"), "\(name) missing: \(r.stdout)")
    }
    #expect(r.stdout.contains("change added \"entity added\""))  // Settings
    #expect(r.stdout.contains("Customer }o--o{ Order") || r.stdout.contains("Customer |o--o{ Order"), "\(r.stdout)")
  }
}
