/// Each model version of a chain laid out once (`StoreLayout`, and what a format derives from
/// it): step k's destination layout is step k+1's source layout, so a version is not laid out
/// again for the step that reads what the step before wrote. Only the last one is kept: memory
/// stays one step's.
struct StepLayouts {
  private var carried: StoreLayout?

  /// The layouts of `step`: its source's, the previous step's destination layout when that is
  /// of the same model (`MigrationRun` checks it), and a new one for its destination.
  mutating func next(_ step: ChainRun.Step) -> (source: StoreLayout?, destination: StoreLayout) {
    let destination = StoreLayout(model: step.plan.destinationModel)
    defer { carried = destination }
    return (carried, destination)
  }
}
