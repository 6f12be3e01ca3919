import MapRuntime
import Testing

/// The table of what a device has (`DeviceFunctions`) covers every function mapc runs, no more,
/// and says what Apple's documentation says: every NSExpression function of its documentation
/// (written out by hand in `FunctionTableTests.documented`) is on the device, and none of mapc's
/// `$entityPolicy` library is (NSEntityMigrationPolicy declares only the seven migration hooks).
@Suite struct DeviceFunctionsTests {
  @Test func everyFunctionMapcRunsHasAnEntryAndNothingElseDoes() {
    #expect(Set(DeviceFunctions.builtins.keys) == Set(KnownFunctions.builtins.keys))
    #expect(Set(DeviceFunctions.manager.keys) == Set(KnownFunctions.manager.keys))
    #expect(Set(DeviceFunctions.entityPolicy.keys) == Set(KnownFunctions.entityPolicy.keys))
    #expect(Set(DeviceFunctions.objectMethods.keys) == Set(KnownFunctions.objectMethods.keys))
  }

  @Test func appleDocumentsTheBuiltInsAndNotTheLibrary() {
    let onDevice = Set(DeviceFunctions.builtins.filter { $0.value.onDevice }.keys)
    #expect(onDevice == FunctionTableTests.documented.union(["objectFrom:withIndex:", "canonical:"]))
    // The seven hooks of NSEntityMigrationPolicy.h are all it declares; no library name is one.
    let hooks: Set<String> = [
      "beginEntityMapping:manager:error:", "createDestinationInstancesForSourceInstance:entityMapping:manager:error:",
      "endInstanceCreationForEntityMapping:manager:error:",
      "createRelationshipsForDestinationInstance:entityMapping:manager:error:",
      "endRelationshipCreationForEntityMapping:manager:error:",
      "performCustomValidationForEntityMapping:manager:error:",
      "endEntityMapping:manager:error:",
    ]
    for (name, origin) in DeviceFunctions.entityPolicy {
      #expect(!origin.onDevice && !hooks.contains(name), "\(name)")
    }
    // Xcode's own mapping models call these (Specs/xcmappingmodel.md): the device has them.
    for name in [
      "fetchRequestForSourceEntityNamed:predicateString:", "destinationInstancesForEntityMappingNamed:sourceInstances:",
      "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    ] {
      #expect(DeviceFunctions.manager[name]?.onDevice == true, "\(name)")
    }
  }

  @Test func generatedPolicyNamesAreRecognisedAndNothingElse() {
    #expect(DeviceFunctions.generatedPolicyBase("NotesV1ToV2MapcPolicy") == "")
    #expect(DeviceFunctions.generatedPolicyBase("NotesMapcPolicy_App_LegacyPolicy") == "App_LegacyPolicy")
    for name in ["MapcPolicy", "App.NotesMapcPolicy", "NotesMapcPolicyX", "NotesMapcPolicy_", "LegacyPolicy", ""] {
      #expect(DeviceFunctions.generatedPolicyBase(name) == nil, "\(name)")
    }
    #expect(DeviceFunctions.identifier("App.Legacy-Policy") == "App_Legacy_Policy")
    #expect(DeviceFunctions.identifier("2App") == "_2App")
  }
}
