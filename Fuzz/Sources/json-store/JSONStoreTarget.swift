import FuzzMain
import MapCompiler
import MapRuntime

/// JSON store bytes, read against a small model with every attribute type and both kinds of
/// relationship; the graph, when valid, is written back out.
let layout: StoreLayout = {
  let contents = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="A"><attribute name="b" optional="YES" attributeType="Binary"/>
    <attribute name="bo" optional="YES" attributeType="Boolean"/><attribute name="d" optional="YES" attributeType="Date"/>
    <attribute name="de" optional="YES" attributeType="Decimal"/><attribute name="do" optional="YES" attributeType="Double"/>
    <attribute name="i" optional="YES" attributeType="Integer 16"/><attribute name="l" optional="YES" attributeType="Integer 64"/>
    <attribute name="s" optional="YES" attributeType="String"/><attribute name="t" optional="YES" attributeType="Transformable"/>
    <attribute name="u" optional="YES" attributeType="UUID"/>
    <relationship name="many" optional="YES" toMany="YES" destinationEntity="B" inverseName="one" inverseEntity="B"/></entity>
    <entity name="B"><attribute name="s" optional="YES" attributeType="String"/>
    <relationship name="one" optional="YES" maxCount="1" destinationEntity="A" inverseName="many" inverseEntity="A"/></entity>
    </model>
    """
  let document = try! XMLReader.parse(bytes: Array(contents.utf8), path: "contents")
  return StoreLayout(model: try! ModelLoader.load(document: document, versionName: nil).model)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data = pointer else { return 0 }
  let input = InputBytes(UnsafeBufferPointer(start: data, count: size), path: "s.json")
  _ = try? StoreReader.read(input, layout: layout, maxErrors: 20, splitMinimum: .max)
  return 0
}

@_cdecl("json_store_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv) { fuzz($0, $1) }
}
