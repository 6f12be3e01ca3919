// A mapc that knows the policy of wibosco's version 2 → 3 mapping: register it, then run the
// normal command line (`WiboscoPosts compile …`, `WiboscoPosts run …`, …).
import MapRuntime
import MapcCLI

// Found as "WiboscoPosts.SectionTitlePolicy", the name the mapping gives.
PolicyRegistry.register(SectionTitlePolicy.self)

MapcCommand.main()
