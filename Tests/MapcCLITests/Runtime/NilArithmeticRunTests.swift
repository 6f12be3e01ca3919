import Foundation
import MapTestSupport
import Testing

/// A value expression that does arithmetic on nil fails the migration, as Core Data's would
/// (Foundation raises in `multiply:by:`): the error names the object, nothing is written, and the
/// input store is unchanged (issue 30).
@Suite(.enabled(if: mapcExecutableProblem == nil)) struct NilArithmeticRunTests {
  @Test func nilInArithmeticFailsTheRunNamingTheObject() throws {
    let folder = try FileManagerTemp.folder("nil-arithmetic")
    defer { try? FileManager.default.removeItem(at: folder) }
    let shop = SharedPaths.packageRoot.appendingPathComponent("Mappings/shop")
    for name in ["Shop.xcdatamodeld", "store-v1.json"] {
      try FileManager.default.copyItem(at: shop.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    // Bob (c2) has no orders: `@max.amount` is nil for him, and nil * 2 raises.
    let mapping = try String(contentsOf: shop.appendingPathComponent("ShopV1ToV2.xml"), encoding: .utf8)
      .replacingOccurrences(
        of: "<attribute name=\"totalSpent\">$source.orders.@sum.amount</attribute>",
        with: "<attribute name=\"totalSpent\">$source.orders.@sum.amount + $source.orders.@max.amount * 2</attribute>")
    #expect(mapping.contains("@max.amount * 2"))
    try mapping.write(to: folder.appendingPathComponent("ShopV1ToV2.xml"), atomically: false, encoding: .utf8)
    let before = try Data(contentsOf: folder.appendingPathComponent("store-v1.json"))
    let r = runMapc(["run", "ShopV1ToV2.xml", "--store", "store-v1.json", "--output", "out.json"], in: folder)
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("[run-nil-arithmetic]"), "\(r.stderr)")
    #expect(r.stderr.contains("from c2"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.json").path))
    #expect(try Data(contentsOf: folder.appendingPathComponent("store-v1.json")) == before)
  }
}
