import Foundation

struct Attribution: Codable {
  var id = UUID()
  var person: String?
  var place: String?
  var year: String?
}

struct Method: Codable { var instructions: [String] }

struct TagSet: Codable {
  var flavors: [String]
  var profiles: [String]
  var styles: [String]
  var booze: [String]
  var nA: [String]
}

struct Preparation: Codable {
  var id = UUID()
  var prepIngredientName: String
  var prepRecipe: [Method]
}

enum Section: Int, Codable { case house = 0, classics }
enum Vessel: String, Codable { case martini, highball }
enum Frozen: String, Codable { case none, cubed }
enum Riff: String, Codable { case original, riff }
enum Amount: String, Codable { case dash, oz }
enum Category: String, Codable { case bitters, liqueur }
