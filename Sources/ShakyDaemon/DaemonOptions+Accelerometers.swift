import ShakyDrivers
import Yams

/// The configuration file's `accelerometers:` list: a host's descriptions of input accelerometers shakyd does not
/// know (see ``AccelerometerDescription``), each checked with the line of any bad value.
///
/// ```yaml
/// accelerometers:
///   - name: "Acme Tilt Sensor"
///     units-per-g: 256
///   - id: "1234:abcd"
///     axes: [ABS_RX, ABS_RY, ABS_RZ]
///     units-per-g: [100, 100, 98]
/// ```
extension DaemonOptions {
    /// The key of the list in the file.
    static let accelerometersKey = "accelerometers"

    /// These options with `accelerometers` set.
    func describing(_ accelerometers: [AccelerometerDescription]?) -> DaemonOptions {
        var options = self
        options.accelerometers = accelerometers
        return options
    }

    /// Reads the list under `key`, refusing anything that is not a list of entries of known keys and good values.
    static func accelerometers(
        _ node: Node, key: Node, path: String
    ) throws(ConfigurationFileError) -> [AccelerometerDescription] {
        func refuse(_ at: Node, _ problem: String) -> ConfigurationFileError {
            ConfigurationFileError(path: path, line: at.mark.map { $0.line }, problem: problem)
        }
        if node.null != nil { return [] }
        guard let entries = node.sequence else {
            throw refuse(key, "accelerometers must be a list of entries (lines starting with “- ”)")
        }
        var descriptions: [AccelerometerDescription] = []
        for entry in entries {
            guard let fields = entry.mapping else {
                throw refuse(
                    entry, "an accelerometer entry must be `key: value` lines (name, id, driver, units-per-g, …)")
            }
            var texts: [String: String] = [:]
            var lines: [String: Node] = [:]
            for (fieldKey, value) in fields {
                guard let name = fieldKey.string else {
                    throw refuse(fieldKey, "an accelerometer entry's key must be text")
                }
                if let scalar = value.scalar {
                    texts[name] = scalar.string
                } else if let list = value.sequence, list.allSatisfy({ $0.scalar != nil }) {
                    texts[name] = list.compactMap { $0.scalar?.string }.joined(separator: " ")
                } else {
                    throw refuse(value, "\(name) must be a value or a list of values")
                }
                lines[name] = fieldKey
            }
            do {
                descriptions.append(try AccelerometerDescription(fields: texts))
            } catch {
                throw refuse(error.key.flatMap { lines[$0] } ?? entry, error.problem)
            }
        }
        return descriptions
    }
}
