import Foundation
import ShakyProtocol
import ShakyTesting
import Testing
import Varlink
import VarlinkGenerator

/// The generated interfaces match their `.varlink` files (`make test` also diffs the whole generated code).
@Suite struct ShakyInterfacesTests {
    static let interfacesFolder = BuiltProduct.checkout.appendingPathComponent("Sources/ShakyProtocol/Interfaces")

    static func file(_ name: String) throws -> InterfaceFile {
        let path = interfacesFolder.appendingPathComponent("\(name).varlink").path
        return try InterfaceFile(text: try String(contentsOfFile: path, encoding: .utf8), fileName: path)
    }

    @Test(
        "Each served description is its .varlink file without the annotation lines; open methods are the @open ones",
        arguments: [
            ("io.shakywords.Game", ShakyAPI.GameInterface.description, ShakyAPI.GameInterface.openMethods),
            ("io.shakywords.Packs", ShakyAPI.PacksInterface.description, ShakyAPI.PacksInterface.openMethods),
            ("io.shakywords.Sensor", ShakyAPI.SensorInterface.description, ShakyAPI.SensorInterface.openMethods),
            ("io.shakywords.Settings", ShakyAPI.SettingsInterface.description, ShakyAPI.SettingsInterface.openMethods),
            ("io.shakywords.Buzzers", ShakyAPI.BuzzersInterface.description, ShakyAPI.BuzzersInterface.openMethods),
        ])
    func descriptionsMatchTheirFiles(name: String, description: String, openMethods: Set<String>) throws {
        let file = try Self.file(name)
        #expect(file.servedDescription == description)
        #expect(file.definition.name == name)
        #expect(!file.definition.methods.isEmpty)
        let annotated = file.annotations.filter { $0.value.contains(.open) }.map { "\(name).\($0.key)" }
        #expect(Set(annotated) == openMethods)
    }

    @Test("Every .varlink file in the folder is generated")
    func everyFileIsGenerated() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.interfacesFolder.path)
            .filter { $0.hasSuffix(".varlink") }.sorted()
        #expect(
            names == [
                "io.shakywords.Buzzers.varlink", "io.shakywords.Game.varlink", "io.shakywords.Packs.varlink",
                "io.shakywords.Sensor.varlink",
                "io.shakywords.Settings.varlink",
            ])
    }
}
