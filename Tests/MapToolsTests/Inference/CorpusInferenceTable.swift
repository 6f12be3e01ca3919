/// Recorded outcomes of `CorpusInferenceTests`: every pair of consecutive versions of the corpus's
/// model bundles (natural version order), "inferred" or the ids of the errors. Four steps add a
/// mandatory relationship, and each of them has an Xcode mapping model in the corpus: three add a
/// mandatory to-many with a minimum count of 0, which Core Data infers (the existing objects get an
/// empty one, which passes validation), so they are inferred; wibosco's first example adds a
/// mandatory to-one (`Post.color`), which stays refused. SwiftGen's test models make attributes
/// mandatory without defaults. apptentive's ATDataModel: two steps change which entity
/// a relationship holds (each with a mapping model in the corpus); its hierarchy (a concrete
/// entity with concrete subentities) is inferred as Core Data does, each entity its own mapping.
enum CorpusInferenceTable {
  static let outcomes: [String: String] = [
    "ElijahButers/UnCloudNotes-App/UnCloudNotes/UnCloudNotesDataModel.xcdatamodeld: UnCloudNotesDataModel → UnCloudNotesDataModel v2":
      "inferred",
    "ElijahButers/UnCloudNotes-App/UnCloudNotes/UnCloudNotesDataModel.xcdatamodeld: UnCloudNotesDataModel v2 → UnCloudNotesDataModel v 3":
      "inferred",
    "ElijahButers/UnCloudNotes-App/UnCloudNotes/UnCloudNotesDataModel.xcdatamodeld: UnCloudNotesDataModel v 3 → UnCloudNotesDataModel v4":
      "inferred",
    "JohnEstropia/CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V1.xcdatamodeld: Advanced.EvolutionDemo.V1 → Advanced.EvolutionDemo.V2":
      "inferred",
    "JohnEstropia/CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.xcdatamodeld: Advanced.EvolutionDemo → Advanced.EvolutionDemo.V2":
      "inferred",
    "SwiftGen/SwiftGen/Sources/TestUtils/Fixtures/Resources/CoreData/Model.xcdatamodeld: Model → Model 2":
      "infer-mandatory-without-default",
    // apptentive's, judged from the model files: 1 → 2 renames ATMessage ATAbstractMessage without
    // a renaming identifier, so ATMessageDisplayType.messages and ATMessageSender.sentMessages
    // held objects with no counterpart (Core Data cannot infer them either; apptentive ships a
    // mapping model for it); 4 → 5 folds ATAbstractMessage and its subentities into a new
    // ATMessage, the same for sentMessages (a mapping model too); 2 → 3 and 3 → 4 only add an
    // optional attribute, which Core Data infers (ATTextMessage, concrete with concrete
    // subentities, and each subentity get their own mappings); 5 → 6 changes class names and adds
    // two entities, inferred.
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld: ATDataModel → ATDataModel 2":
      "infer-relationship",
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld: ATDataModel 2 → ATDataModel 3":
      "inferred",
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld: ATDataModel 3 → ATDataModel 4":
      "inferred",
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld: ATDataModel 4 → ATDataModel 5":
      "infer-relationship",
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld: ATDataModel 5 → ATDataModel 6":
      "inferred",
    "atomicbird/momcom/momcomTests/momcomTests.xcdatamodeld: momcTests → momcTests 2": "inferred",
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model.xcdatamodeld: Model1 → Model2": "inferred",
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model.xcdatamodeld: Model2 → Model3": "inferred",
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model.xcdatamodeld: Model3 → Model4": "inferred",
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model.xcdatamodeld: Model4 → Model5": "inferred",
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model.xcdatamodeld: Model1 → Model2": "inferred",
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model.xcdatamodeld: Model2 → Model3": "inferred",
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model.xcdatamodeld: Model3 → Model4": "inferred",
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model.xcdatamodeld: Model4 → Model5": "inferred",
    "gurachevskaya/CoreDataMigrations/CoreDataMigrations/Groceries.xcdatamodeld: GroceryItem → GroceryItem2":
      "inferred",
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/CoreDataMigration.xcdatamodeld: CoreDataMigration-v1.0 → CoreDataMigration-v1.1":
      "inferred",
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/CoreDataMigration.xcdatamodeld: CoreDataMigration-v1.1 → CoreDataMigration-v1.2":
      "inferred",
    // A new mandatory to-many (Note.images, minCount 0): Core Data infers it, each Note gets none.
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/CoreDataMigration.xcdatamodeld: CoreDataMigration-v1.2 → CoreDataMigration-v1.3":
      "inferred",
    "objcio/core-data/Migrations/Migrations/Moody.xcdatamodeld: Moody → Moody 2": "inferred",
    // A new mandatory to-many (Continent.moods, minCount 0): inferred, each Continent gets none.
    "objcio/core-data/Migrations/Migrations/Moody.xcdatamodeld: Moody 2 → Moody 3": "inferred",
    "objcio/core-data/Migrations/Migrations/Moody.xcdatamodeld: Moody 3 → Moody 4": "inferred",
    "objcio/core-data/Migrations/Migrations/Moody.xcdatamodeld: Moody 4 → Moody 5": "inferred",
    "objcio/core-data/Migrations/Migrations/Moody.xcdatamodeld: Moody 5 → Moody 6": "inferred",
    "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld: CoreDataMigration_Example → CoreDataMigration_Example 2":
      "inferred",
    // A new mandatory to-one (Post.color): each Post would have none; refused as by Core Data.
    "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld: CoreDataMigration_Example 2 → CoreDataMigration_Example 3":
      "infer-mandatory-without-default",
    "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld: CoreDataMigration_Example 3 → CoreDataMigration_Example 4":
      "inferred",
    "wibosco/CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld: CoreDataMigration_Example → CoreDataMigration_Example 2":
      "inferred",
    // A new mandatory to-many (Post.sections, minCount 0): inferred, each Post gets none.
    "wibosco/CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld: CoreDataMigration_Example 2 → CoreDataMigration_Example 3":
      "inferred",
    "wibosco/CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld: CoreDataMigration_Example 3 → CoreDataMigration_Example 4":
      "inferred",
  ]
}
