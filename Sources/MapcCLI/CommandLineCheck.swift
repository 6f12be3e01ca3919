import ArgumentParser
import Foundation
import MapJSONText

/// Checks of the command line made before ArgumentParser reads it (`Specs/diagnostics.md` §2):
/// `mapc help NAME` of a command that does not exist, and an option the command does not have,
/// named with the nearest one it has (ArgumentParser reports a misspelt required option as the
/// required one missing, never naming the typo). Also lets `mapc eval` take a format that starts
/// with `-` (`mapc eval --expression -1`) by passing it after `--`.
enum CommandLineCheck {
  /// The command the leading words of `arguments` name, and how many words name it.
  static func command(_ arguments: ArraySlice<String>) -> (type: ParsableCommand.Type, words: Int) {
    var current: ParsableCommand.Type = MapcCommand.self
    var k = arguments.startIndex
    while k < arguments.endIndex,
      let next = current.configuration.subcommands.first(where: { $0._commandName == arguments[k] })
    {
      current = next
      k += 1
    }
    return (current, k - arguments.startIndex)
  }

  /// The options of `command` (`--name`, `-x`), each with whether it takes a value: the
  /// arguments of ArgumentParser's description of the command (`_dumpHelp()`, the JSON that
  /// `--experimental-dump-help` prints, ToolInfo's serialization version 0), hidden ones too,
  /// plus the options ArgumentParser itself takes on every command.
  static func options(of command: ParsableCommand.Type) -> [String: Bool] {
    var result = builtIn
    guard let document = try? JSONDocument(Array(command._dumpHelp().utf8), file: "dump-help"),
      let arguments = document.root["command"]?["arguments"]?.array
    else { return result }
    for argument in arguments {
      guard let kind = argument["kind"]?.string, kind != "positional" else { continue }
      for name in argument["names"]?.array ?? [] {
        guard let text = name["name"]?.string else { continue }
        let dashes = name["kind"]?.string == "long" ? "--" : "-"
        result[dashes + text] = kind == "option"
      }
    }
    return result
  }

  /// What ArgumentParser reads on every command before the command's own options.
  static let builtIn: [String: Bool] = [
    "--help": false, "-h": false, "--experimental-dump-help": false, "--generate-completion-script": true,
  ]

  /// The message of a command line that names a command or option that does not exist, or nil.
  static func problem(_ arguments: [String]) -> String? {
    if arguments.first == "help" {
      let rest = arguments.dropFirst()
      let words = command(rest).words
      if words < rest.count {
        let name = (["mapc"] + rest.prefix(words)).joined(separator: " ")
        return "Unknown command '\(rest[rest.startIndex + words])' for '\(name)'; '\(name) --help' lists its commands."
      }
      return nil
    }
    let (type, words) = command(arguments[...])
    guard words > 0 else { return nil }
    let known = options(of: type)
    var k = words
    while k < arguments.count {
      let a = arguments[k]
      k += 1
      if a == "--" { break }
      guard a.hasPrefix("--") else {
        if let takesValue = known[a], takesValue { k += 1 }
        continue
      }
      let name = String(a.prefix { $0 != "=" })
      if let takesValue = known[name] {
        if takesValue && !a.contains("=") { k += 1 }
        continue
      }
      let commandName = (["mapc"] + arguments.prefix(words)).joined(separator: " ")
      var message = "Unknown option '\(name)' for '\(commandName)'"
      let longNames = known.keys.filter { $0.hasPrefix("--") }
      if let nearest = longNames.min(by: { (distance(name, $0), $0) < (distance(name, $1), $1) }),
        distance(name, nearest) <= max(2, name.count / 3)
      {
        message += "; did you mean '\(nearest)'?"
      }
      return message
    }
    return nil
  }

  /// `arguments` with a format of `mapc eval` that starts with `-` (and is no option of eval)
  /// moved after `--`, so it is read as the format.
  static func evalFormat(_ arguments: [String]) -> [String] {
    let (type, words) = command(arguments[...])
    guard type == MapcCommand.Eval.self, !arguments.contains("--") else { return arguments }
    let known = options(of: type)
    var k = words
    while k < arguments.count {
      let a = arguments[k]
      if let takesValue = known[String(a.prefix { $0 != "=" })] {
        k += takesValue && !a.contains("=") ? 2 : 1
        continue
      }
      if a.hasPrefix("-") && a != "-" {
        var moved = arguments
        moved.remove(at: k)
        return moved + ["--", a]
      }
      k += 1
    }
    return arguments
  }

  /// Levenshtein distance of two short strings.
  static func distance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    var row = Array(0...y.count)
    for i in 1...max(1, x.count) where !x.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in 1...max(1, y.count) where !y.isEmpty {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[y.count]
  }

  /// Prints `message` as ArgumentParser prints a usage error, with the command's usage; exit 64.
  static func fail(_ message: String, _ arguments: [String]) -> Never {
    let (type, words) = command(arguments.first == "help" ? arguments.dropFirst() : arguments[...])
    let name = (["mapc"] + arguments.filter { $0 != "help" }.prefix(words)).joined(separator: " ")
    var text = "Error: \(message)\n"
    let usage = MapcCommand.usageString(for: type)
    if !usage.isEmpty { text += "Usage: \(usage)\n" }
    text += "  See '\(name) --help' for more information.\n"
    FileHandle.standardError.write(Data(text.utf8))
    exit(ExitCode(.usage).rawValue)
  }
}
