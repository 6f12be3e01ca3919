// A mapc that knows this app's migration policies: register them, then run the normal
// command line (`SongbookSimple compile …`, `SongbookSimple run …`, …).
import MapRuntime
import MapcCLI

// Found as "SongbookSimple.LegacyToModernPolicy", or as "LegacyToModernPolicy" while no other
// module registers a class of that name.
PolicyRegistry.register(LegacyToModernPolicy.self)
// Old mappings name the Objective-C class; register the Swift class under that name too.
PolicyRegistry.register(LibraryPolicy.self, as: "SBLibraryPolicy")

MapcCommand.main()
