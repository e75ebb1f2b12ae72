import Testing

@testable import ShakyProtocol

@Suite struct ShakyInterfacesTests {
    @Test(arguments: [
        ("io.shakywords.Game", VarlinkInterface.gameDescription),
        ("io.shakywords.Packs", VarlinkInterface.packsDescription),
        ("io.shakywords.Sensor", VarlinkInterface.sensorDescription),
        ("io.shakywords.Settings", VarlinkInterface.settingsDescription),
    ])
    func descriptionsParse(name: String, description: String) throws {
        let definition = try VarlinkInterfaceDefinition(parsing: description)
        #expect(definition.name == name)
        #expect(!definition.methods.isEmpty)
    }
}
