import Foundation

/// What running the built `mapc` cost: its CPU time (user + system) and its peak resident
/// memory, measured by python3's `resource.getrusage(RUSAGE_CHILDREN)` in a wrapper process whose
/// only child is that `mapc`. CPU time, unlike the wall clock, hardly changes when other builds
/// and tests load the machine, so a bound on it fails on a slower algorithm, not a busy machine.
public struct MeasuredRun: Sendable {
  public var result: MapcResult
  public var cpuSeconds: Double
  public var peakKilobytes: Int

  /// CPU time as a Duration, for `#expect(run.cpu < .seconds(n))`.
  public var cpu: Duration { .milliseconds(Int64((cpuSeconds * 1000).rounded())) }
}

private let measuringScript = """
  import resource, subprocess, sys
  r = subprocess.run(sys.argv[2:])
  u = resource.getrusage(resource.RUSAGE_CHILDREN)
  with open(sys.argv[1], "w") as f:
      f.write("%d %.6f %d" % (r.returncode, u.ru_utime + u.ru_stime, u.ru_maxrss))
  sys.exit(r.returncode if r.returncode >= 0 else 128 - r.returncode)
  """

/// Runs the built `mapc` with `arguments` under python3 and returns its result, CPU time and
/// peak memory. When python3 or the measurement is missing, the CPU time is infinite and the
/// peak `Int.max`, so a bound fails with the result's stderr to say why.
public func measuredRunMapc(_ arguments: [String], in directory: URL? = nil) -> MeasuredRun {
  guard let executable = mapcExecutable else {
    let r = MapcResult(exitCode: 127, stdout: "", stderr: mapcExecutableProblem ?? "mapc executable not found")
    return MeasuredRun(result: r, cpuSeconds: .infinity, peakKilobytes: .max)
  }
  let report = FileManager.default.temporaryDirectory.appendingPathComponent("rusage-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: report) }
  let result = runExecutable(
    URL(fileURLWithPath: "/usr/bin/env"),
    ["python3", "-c", measuringScript, report.path, executable.path] + arguments, in: directory)
  let fields = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: " ")
  guard fields.count == 3, let cpu = Double(fields[1]), let peak = Int(fields[2]) else {
    return MeasuredRun(result: result, cpuSeconds: .infinity, peakKilobytes: .max)
  }
  return MeasuredRun(result: result, cpuSeconds: cpu, peakKilobytes: peak)
}
