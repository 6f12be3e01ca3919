import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import MapArchives

/// The limits mapc enforces on its inputs and on what it builds, in one place
/// (`Specs/limits.md` lists each with the error it gives; the tests check each).
package enum Limits {
  /// Largest mapping or model XML file read (`limit-input-size`).
  package static let xmlFileBytes = 64 << 20
  /// Attributes one XML element may have (`xml-too-many-attributes`, found by mapc's own scanner
  /// before libxml2 parses: libxml2's cost grows with the square of an element's attributes, and
  /// 100,000 of them took 15 s). Core Data's elements have fewer than 30.
  package static let xmlAttributesPerElement = 256
  /// Levels of entity inheritance in a model (`model-inheritance-too-deep`): what is built per
  /// entity (hashes, layouts, checks) walks its ancestors, so a chain of thousands of entities
  /// cost seconds per thousand. Core Data models rarely pass 5.
  package static let inheritanceDepth = 256
  /// Largest plan (`.cdm`) read (`limit-input-size`).
  package static let planFileBytes = 256 << 20
  /// Largest store read: half the machine's memory (a run needs the file and the objects
  /// built from it), or `MAPC_MAX_STORE_BYTES` when set. Checked before any memory is taken.
  package static var storeFileBytes: Int {
    if let text = getenv("MAPC_MAX_STORE_BYTES"), let v = Int(String(cString: text)), v > 0 { return v }
    return physicalMemory / 2
  }
  /// Bytes a string built by an expression may hold (`run-value-too-large`, checked before
  /// it is built by the functions whose output can outgrow their input many times:
  /// `replace:with:in:` and `join:with:`).
  package static let valueBytes = 64 << 20
  /// Values a property list or keyed archive read from a file may expand to, counting a shared
  /// object at every place it appears (`limit-expanded-size`; a Transformable value past it is
  /// kept as its bytes). A list of arrays each holding the one below twice doubles at each
  /// level: 25 levels of 50 bytes each would otherwise be 33 million values.
  package static let expandedValues = ExpansionLimits.values
  /// Bytes of strings and data a property list or keyed archive may expand to, counted the
  /// same way (`limit-expanded-size`).
  package static let expandedBytes = ExpansionLimits.bytes

  /// `--memory-limit` when not given: half the machine's memory (`StreamingRun`).
  package static var defaultMemoryLimit: Int { physicalMemory / 2 }
  /// The smallest `--memory-limit` taken: 16 KiB (a limit that small is for tests, which want
  /// stores read in many chunks).
  package static let smallestMemoryLimit = 16 << 10

  /// Installed memory in bytes (1 GiB when unknown).
  package static let physicalMemory: Int = {
    let pages = sysconf(Int32(_SC_PHYS_PAGES))
    let size = sysconf(Int32(_SC_PAGESIZE))
    return pages > 0 && size > 0 ? pages * size : 1 << 30
  }()
}

/// Byte counts as people read them: "812 bytes", "3.4 MB", "12.0 GB" (powers of 1000).
package enum ByteCount {
  package static func text(_ n: Int) -> String {
    if n < 1000 { return "\(n) bytes" }
    let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
    var v = Double(n) / 1000
    var u = 0
    while v >= 1000 && u < units.count - 1 {
      v /= 1000
      u += 1
    }
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[u]) (\(n) bytes)"
  }
}

/// Sizes as `--memory-limit` takes them: a whole number of bytes, or followed by K, M, G or T
/// (powers of 1024; `KB`, `KiB` and lower case mean the same).
package enum MemorySize {
  package static func parse(_ text: String) -> Int? {
    let t = text.trimmingCharacters(in: .whitespaces).uppercased()
    let digits = t.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let n = Int(digits) else { return nil }
    var unit = String(t.dropFirst(digits.count))
    for suffix in ["IB", "B"] where unit.hasSuffix(suffix) && unit.count > 0 {
      unit = String(unit.dropLast(suffix.count))
      break
    }
    let shift: Int
    switch unit {
    case "": shift = 0
    case "K": shift = 10
    case "M": shift = 20
    case "G": shift = 30
    case "T": shift = 40
    default: return nil
    }
    let (v, overflow) = n.multipliedReportingOverflow(by: 1 << shift)
    return overflow ? nil : v
  }
}
