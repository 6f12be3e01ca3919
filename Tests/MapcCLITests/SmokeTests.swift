import Testing

@Suite struct MapcCLITestsPlaceholder {
  @Test func packageBuilds() { #expect(Bool(true)) }
}
