import Crypto
import Foundation

/// The SHA-256 of a file, as `mapc migrate` records intermediate stores by it and
/// `mapc migrate --stores` reports each store's and result's.
public enum FileDigest {
  /// In lowercase hex; nil when the file cannot be read (not a regular file, too large).
  public static func sha256(ofFile file: String) -> String? {
    guard let input = try? InputBytes(contentsOf: file, regularFileOnly: true, maxBytes: Limits.storeFileBytes)
    else { return nil }
    return SHA256.hash(data: input.unsafeBytes).map { String(format: "%02x", $0) }.joined()
  }
}
