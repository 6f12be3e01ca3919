import Testing

@Suite struct MapCompilerTestsPlaceholder {
  @Test func packageBuilds() { #expect(Bool(true)) }
}
