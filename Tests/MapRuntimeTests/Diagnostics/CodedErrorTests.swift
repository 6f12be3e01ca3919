import Foundation
import MapRuntime
import Testing

/// Every typed error reaches the line a command prints in one way (`CodedError`): the id is the
/// code's raw value and the message is the error's words, placed at the file it is about. The
/// expected lines are written out by hand from `Specs/diagnostics.md` §1 (`PLACE: error:
/// MESSAGE [id]`).
@Suite struct CodedErrorTests {
  @Test func aFileThatCannotBeReadIsOneLineAboutItsFile() {
    let io = StoreIOError(code: .notFound, path: "in.json", operation: "read", reason: "no such file or directory")
    let failure = MigrationFailure(io, file: "in.json")
    #expect(failure.errors.count == 1)
    #expect(failure.description == "in.json: error: cannot read 'in.json': no such file or directory [io-not-found]")
  }

  @Test func aStoreValueKeepsItsIdAndWordsWithoutTheBracketedId() {
    let value = StoreValueError(.invalidBase64, "'%%' is not base64")
    let error = MigrationError(value, file: "s.json", at: SourceLocation(file: "s.json", line: 3, column: 9))
    #expect(error.code == "store-invalid-base64")
    #expect(error.message == "'%%' is not base64")
    #expect(error.description == "s.json:3:9: error: '%%' is not base64 [store-invalid-base64]")
  }

  @Test func aPlanErrorPrintsAsItsOwnDiagnosticLineDoes() {
    let plan = PlanFormatError(code: .truncated, message: "the file ends inside the header", path: "p.plan")
    #expect(MigrationError(plan, file: "p.plan").description == plan.diagnosticLine)
    #expect(plan.diagnosticLine == "p.plan: error: the file ends inside the header [plan-truncated]")
  }

  @Test func everyCodeIsAnIdOfItsFamily() {
    let families: [(String, [String])] = [
      ("io-", StoreIOError.Code.allCases.map(\.rawValue).filter { $0 != "limit-input-size" }),
      ("store-", StoreValueError.Code.allCases.map(\.rawValue)),
      ("plan-", PlanFormatError.Code.allCases.map(\.rawValue)),
    ]
    for (prefix, ids) in families {
      #expect(!ids.isEmpty)
      for id in ids { #expect(id.hasPrefix(prefix), "\(id)") }
    }
  }
}
