import Foundation
import MapRuntime
import MapTools

/// Migrates stores (what `mapc run` and `mapc migrate` do): one plan over a store (``run(_:)``),
/// or a store along a model's version chain (``prepare(_:observer:)``, then ``migrate(_:_:observer:)``
/// or ``dryRun(_:_:observer:)``), with the steps inferred where no mapping is given and every
/// loss of data refused unless consented to before a step runs.
public struct Migrator: Sendable {
  /// A migrator.
  public init() {}

  /// Where a migration along the chain goes, and with what.
  public struct Options: Sendable {
    /// The store to migrate (replaced in place unless ``output`` is set).
    public var store: String
    /// Every version of the model, in chain order.
    public var versions: ModelVersions
    /// How messages name the model (`App.xcdatamodeld`).
    public var modelName: String
    /// The store format's name (`sqlite`, `json`); nil: the one of the store's content.
    public var storeFormat: String?
    /// A folder of mappings (mapping XML, `.xcmappingmodel`) for the steps that are not inferred.
    public var mappings: String?
    /// The version to migrate to; nil: the model's current version. An earlier one steps back.
    public var target: String?
    /// One step from the store's version to the target, as Core Data's automatic migration
    /// takes it (default: one version at a time).
    public var direct = false
    /// The losses accepted beforehand (`--allow-data-loss`, `--allow-drop`).
    public var consent = DropConsent()
    /// A lock file (`mapc lock`): the drops it records for a shipped step are accepted for it.
    public var lock: String?
    /// Where to write the result, leaving the store as it is; nil: the store is replaced.
    public var output: String?
    /// Where to keep the original store when it is replaced.
    public var backup: String?
    /// Keep each intermediate store in a work folder beside the store (`.STORE.mapc-migrate`,
    /// flushed to disk, its SHA-256 recorded), so that a run killed part-way is resumed from
    /// the last complete one (`mapc migrate --checkpoints`), for long chains over large stores.
    /// Default: the chain is fused, its steps handing their results on in memory where the
    /// store's format can do it exactly, else through unflushed scratch stores, and a killed run
    /// starts over. The result is the same bytes either way.
    public var checkpoints = false
    /// `--memory-limit`, in bytes: a store over it is migrated a chunk at a time, step by step,
    /// where each step's plan lets it (`MigrationRun.Options.memoryLimit`), else refused
    /// (`run-memory-limit`); nil: in memory.
    public var memoryLimit: Int?
    /// Called as the passes of a step advance.
    public var progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)?
    /// Called as a step's read and write phases advance.
    public var ioProgress: (@Sendable (MigrationRun.IOPhase, Int, Int?) -> Void)?

    /// Options to migrate `store` along `versions` (of the model named `modelName`).
    public init(store: String, versions: ModelVersions, modelName: String) {
      self.store = store
      self.versions = versions
      self.modelName = modelName
    }
  }

  /// What ``prepare(_:observer:)`` found.
  public enum Preparation: Sendable {
    /// The store is at the target version already (nothing to do).
    case atTarget(version: String)
    /// The store's entity hashes are the target's: Core Data opens it without migrating.
    case compatible(from: String, target: String)
    /// The steps to run.
    case steps(MigrationSteps)
  }

  /// What a migration along the chain did.
  public struct Report: Sendable {
    /// Each step, in order.
    public var steps: [MigrationStepResult]
    /// How many steps an interrupted run had done that this one reused.
    public var resumedSteps: Int
    /// Where the result is (the store, ``Options/output``); nil for a dry run.
    public var writtenTo: String?
    /// Notes on what the new store leaves out or keeps as it is (Core Data's history and
    /// CloudKit tables, missing external Binary files), in the order `mapc` prints them.
    public var notes: [String]
  }
}

/// The steps of a migration along a model's chain, compiled and checked, none run yet.
public struct MigrationSteps: Sendable {
  /// The chain: each step's versions and plan.
  public let chain: MigrationChain
  /// What each step keeps, renames, converts and drops.
  public let analyses: [StepAnalysis]
  /// The store's format.
  public let format: any StoreFormat
  /// The migrations the store's metadata records already (`mapcMigrations`).
  public let previousRecords: [MetadataValue]
  /// The policy classes steps name that are not registered in this program: a run refuses them.
  public let unregisteredPolicies: [MigrationError]

  /// The versions' names, in chain order.
  public var names: [String] { chain.versions.names }
  /// The version the store is at.
  public var from: String { names[chain.steps.first!.from] }
  /// The version the store goes to.
  public var to: String { names[chain.steps.last!.to] }

  /// How messages name step `k`: `'A' → 'B' (inferred)`, `'B' → 'A' (mapping M.xml, reverse)`.
  public func describe(_ k: Int) -> String {
    let step = chain.steps[k]
    let how = (step.mappingPath.map { "mapping \($0)" } ?? "inferred") + (step.reverse ? ", reverse" : "")
    return "'\(names[step.from])' → '\(names[step.to])' (\(how))"
  }

  /// The name a report gives step `k`'s mapping: its file (an `.xcmappingmodel`'s folder), or
  /// `inferred`.
  public func mappingName(_ k: Int) -> String {
    guard let path = chain.steps[k].mappingPath else { return "inferred" }
    let url = URL(fileURLWithPath: path)
    return url.lastPathComponent == "xcmapping.xml"
      ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
  }
}
