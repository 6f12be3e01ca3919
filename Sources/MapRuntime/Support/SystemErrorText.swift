import Foundation

/// A Foundation file error in words (`cannot create folder 'afile': file exists`), not the
/// `Error Domain=NSCocoaErrorDomain Code=516 … UserInfo={…}` dump its description is.
package enum SystemErrorText {
  package static func describe(_ error: any Error) -> String {
    let ns = error as NSError
    guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return "\(error)" }
    let underlying =
      ns.domain == NSPOSIXErrorDomain ? ns : (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    let what =
      underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
      ?? ns.localizedDescription
    guard let path = ns.userInfo[NSFilePathErrorKey] as? String else { return what }
    return "'\(path)': \(what.prefix(1).lowercased() + what.dropFirst())"
  }
}
