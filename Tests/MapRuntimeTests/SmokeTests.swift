import Testing

@Suite struct MapRuntimeTestsPlaceholder {
  @Test func packageBuilds() { #expect(Bool(true)) }
}
