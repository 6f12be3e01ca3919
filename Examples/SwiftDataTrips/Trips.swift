// A SwiftData schema in two versions, read by `mapc model` and `--model` (README.md,
// Specs/swiftdata-schema.md). Not built: mapc reads it as text.
import Foundation
import SwiftData

enum TripsV1: VersionedSchema {
  static var versionIdentifier = Schema.Version(1, 0, 0)
  static var models: [any PersistentModel.Type] { [Trip.self] }

  @Model final class Trip {
    var name: String = ""
    var nights: Int = 1
    init(name: String) { self.name = name }
  }
}

enum TripsV2: VersionedSchema {
  static var versionIdentifier = Schema.Version(2, 0, 0)
  static var models: [any PersistentModel.Type] { [Trip.self, Stop.self] }

  @Model final class Trip {
    @Attribute(originalName: "name") var title: String = ""
    var nights: Int = 1
    @Relationship(deleteRule: .cascade) var stops: [Stop] = []
    var summary: String { "\(title), \(nights) nights" }
    init(title: String) { self.title = title }
  }

  @Model final class Stop {
    var place: String = ""
    var trip: Trip?
    init(place: String) { self.place = place }
  }
}

enum TripsPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self] }
  static var stages: [MigrationStage] { [.lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self)] }
}
