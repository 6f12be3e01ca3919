import SwiftData

/// A model the container never reaches: its name sorts before Cocktail (had it been read, every
/// entity number after it would move), and a dictionary is no type mapc maps.
@Model
final class Apron {
  var pockets: [String: Int] = [:]
  var owner: Garnish?
  init() {}
}
