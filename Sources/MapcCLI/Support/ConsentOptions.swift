import ArgumentParser
import MapTools

/// `--allow-data-loss` and `--allow-drop`, for the commands that refuse a step that would lose
/// data without consent (`mapc run`, `mapc migrate`; `Specs/migrate.md` §6).
struct ConsentOptions: ParsableArguments {
  @Flag(help: "Run even when a step drops data the store holds (objects, values, links).")
  var allowDataLoss = false

  @Option(
    name: .customLong("allow-drop"),
    help: ArgumentHelp(
      "Accept losing this entity's objects (and all its properties), this property's values, or this composite element's values (repeatable).",
      valueName: "Entity[.property[.element]]"))
  var allowDrop: [String] = []

  var consent: DropConsent { DropConsent(all: allowDataLoss, names: allowDrop) }
}
