import SwiftData

/// A model kept in the folder that the container never uses: a set is no type mapc maps.
@Model
final class Blueprint {
  var tags: Set<String> = []
  var sketch: Blueprint?
  init() {}
}
