import Foundation
import MapJSON
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

/// Ordinary-looking input that used to crash or silently do the wrong thing (issue 17): each is
/// now a clear error with its id, place and object.
@Suite struct HostileInputTests {
  static func readErrors(_ text: String) throws -> [MigrationError] {
    let layout = try storeLayout(ofModel: Hardening.sourceModel)
    do throws(MigrationFailure) {
      _ = try StoreReader.read(InputBytes(Array(text.utf8), path: "s.json"), layout: layout)
      return []
    } catch {
      return error.errors
    }
  }

  /// A to-many holding something other than id strings trapped in JSONScanner.nextKey().
  @Test(arguments: [#"[1]"#, #"[null]"#, #"[{}]"#, #"["x1", 2]"#, #"[[], "x1"]"#, #"[{"a": [1, {}]}, 3]"#])
  func toManyWithNonStringElement(_ list: String) throws {
    let text = #"{"objects": {"Person": [{"id": "p1", "pets": "# + list + #", "name": 5}], "Pet": [{"id": "x1"}]}}"#
    let errors = try Self.readErrors(text)
    let first = try #require(errors.first)
    #expect(first.code == "store-wrong-type")
    #expect(first.message.contains("p1.pets"), "\(first.message)")
    // Reading went on after the array: the next property's error is reported too.
    #expect(errors.contains { $0.message.contains("p1.name") }, "\(errors)")
  }

  /// JSON readers keep the last of two equal keys; mapc used to migrate both copies.
  @Test(arguments: ["objects", "metadata"])
  func duplicateTopLevelKey(_ key: String) throws {
    let text = #"{"metadata": {}, "objects": {"Pet": [{"id": "x1"}]}, ""# + key + #"": {}}"#
    let errors = try Self.readErrors(text)
    let e = try #require(errors.first)
    #expect(e.code == "store-duplicate-key")
    #expect(e.message.contains("\"\(key)\" appears twice"))
    #expect(e.location?.line == 1)
    #expect(e.location?.column == text.utf8.count - key.utf8.count - 6)
  }

  /// stringFromDate:format: of a date no calendar can show trapped in CivilDate.fields.
  @Test(arguments: ["1e300", "-1e300", "1e308 * 10", "1e308 * 10 - 1e308 * 10", "2e14"])
  func stringFromDateOutOfRange(_ seconds: String) throws {
    let mapping = Hardening.mapping(
      label: #"FUNCTION($entityPolicy, "stringFromDate:format:", CAST(\#(seconds), "NSDate"), "yyyy-MM-dd")"#)
    let outcome = try runInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel, mapping: mapping,
      store: Hardening.store, label: "date-range")
    guard case .failure(let failure) = outcome else {
      Issue.record("a date of \(seconds) s was formatted")
      return
    }
    let e = try #require(failure.errors.first)
    #expect(e.code == "run-date-out-of-range")
    #expect(
      e.message.contains("Person/1 (created by PersonToPerson from p1): Person.label: cannot write the date"),
      "\(e.message)")
  }

  @Test func stringFromDateInRangeStillWorks() throws {
    let mapping = Hardening.mapping(
      label: #"FUNCTION($entityPolicy, "stringFromDate:format:", CAST(-63113904000, "NSDate"), "yyyy-MM-dd")"#)
    let objects = try migrateInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel, mapping: mapping,
      store: Hardening.store, label: "date-ok")
    #expect(objects["Person"]?.first?["label"] as? String == "0001-01-01")
  }

  /// Int64 arithmetic that overflows becomes a Double (as Foundation's NSNumber arithmetic); a
  /// Double at or beyond ±2^63 going into an integer attribute is an error, not Int64.min/max.
  @Test(arguments: [
    "-9223372036854775808 - 1", "9223372036854775807 + 1", "9223372036854775807 * 2", "-(-9223372036854775808)",
  ])
  func integerOverflowIsNotStoredSaturated(_ expression: String) throws {
    let outcome = try runInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel,
      mapping: Hardening.mapping(count: expression), store: Hardening.store, label: "overflow")
    guard case .failure(let failure) = outcome else {
      Issue.record("\(expression) was stored: \(try outcome.get().text)")
      return
    }
    #expect(failure.errors.first?.code == "run-integer-range", "\(failure.errors)")
  }

  /// ICU gives up on "ab"×150,000 + "c" MATCHES "(a|b)*c" (its backtracking stack fills):
  /// that was a silent "no match", which filtered the object out.
  @Test func regexEngineGivingUpIsAnError() throws {
    let store =
      #"{"objects": {"Person": [{"id": "p1", "name": ""# + String(repeating: "ab", count: 150_000) + #"c"}]}}"#
    let mapping = Hardening.mapping().replacingOccurrences(
      of: #"source="Person" destination="Person">"#,
      with: #"source="Person" destination="Person"><filter>name MATCHES "(a|b)*c"</filter>"#)
    let outcome = try runInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel, mapping: mapping,
      store: store, label: "regex-gave-up")
    guard case .failure(let failure) = outcome else {
      Issue.record("the run succeeded: \(try outcome.get().text.prefix(200))")
      return
    }
    #expect(failure.errors.first?.code == "run-regex-failed", "\(failure.errors)")
  }

  @Test func largestIntegersStillStore() throws {
    let objects = try migrateInline(
      sourceModel: Hardening.sourceModel, destinationModel: Hardening.destinationModel,
      mapping: Hardening.mapping(count: "-9223372036854775807 - 1"), store: Hardening.store, label: "int-min")
    #expect(objects["Person"]?.first?["count"] as? Int == Int.min)
  }
}
