import Foundation
import ShakyTesting
import Testing

/// The udev rules, read the way udev reads them: `KEY==value` matches and `KEY=value`/`KEY+=value` assignments.
@Suite struct UdevRulesTests {
    struct Rule {
        var matches: [String: String] = [:]
        var assignments: [String: [String]] = [:]
    }

    static func rules() throws -> [Rule] {
        let text = try String(
            contentsOf: BuiltProduct.checkout.appendingPathComponent("udev/70-shaky.rules"), encoding: .utf8)
        var rules: [Rule] = []
        var current = Rule()
        var pending = ""
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") { continue }
            pending += line
            if pending.hasSuffix("\\") {
                pending.removeLast()
                continue
            }
            defer { pending = "" }
            guard !pending.isEmpty else { continue }
            current = Rule()
            for field in Self.fields(of: pending) {
                guard let operatorRange = field.range(of: #"(==|!=|\+=|:=|=)"#, options: .regularExpression) else {
                    Issue.record("not a udev key/value: \(field)")
                    continue
                }
                let key = String(field[..<operatorRange.lowerBound])
                let op = String(field[operatorRange])
                var value = String(field[operatorRange.upperBound...])
                #expect(value.hasPrefix("\"") && value.hasSuffix("\""), "unquoted value in: \(field)")
                value = String(value.dropFirst().dropLast())
                if op == "==" || op == "!=" {
                    current.matches[key] = value
                } else {
                    current.assignments[key, default: []].append(value)
                }
            }
            rules.append(current)
        }
        return rules
    }

    /// Splits a rule line at commas outside quotes.
    static func fields(of line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                fields.append(field.trimmingCharacters(in: .whitespaces))
                field = ""
            } else {
                field.append(character)
            }
        }
        if !field.trimmingCharacters(in: .whitespaces).isEmpty {
            fields.append(field.trimmingCharacters(in: .whitespaces))
        }
        return fields
    }

    @Test func everyGotoHasItsLabel() throws {
        let rules = try Self.rules()
        let labels = Set(rules.flatMap { $0.assignments["LABEL"] ?? [] })
        let gotos = rules.flatMap { $0.assignments["GOTO"] ?? [] }
        #expect(!gotos.isEmpty)
        for target in gotos { #expect(labels.contains(target), "GOTO \(target) has no LABEL") }
    }

    @Test func iioAccelerometersGoToTheShakyGroupAndStartTheDaemon() throws {
        let rules = try Self.rules()
        let iioMatches = rules.filter { $0.matches["SUBSYSTEM"] == "iio" }
        #expect(iioMatches.contains { $0.matches["TEST"] == "in_accel_x_raw" })
        #expect(iioMatches.contains { $0.matches["TEST"] == "scan_elements/in_accel_x_en" })
        let iio = try #require(rules.first { $0.assignments["GROUP"] == ["shaky"] && $0.assignments["RUN"] != nil })
        #expect(iio.assignments["MODE"] == ["0660"])
        #expect(iio.assignments["TAG"] == ["systemd"])
        #expect(iio.assignments["ENV{SYSTEMD_WANTS}"] == ["shakyd.service"])
        #expect(iio.assignments["RUN"]?.first?.contains("buffer/enable") == true)
        for attribute in [
            "buffer/length", "buffer/watermark", "scan_elements/*_en", "trigger/current_trigger",
            "current_timestamp_clock", "sampling_frequency", "in_accel_sampling_frequency", "in_accel_hysteresis",
        ] {
            #expect(iio.assignments["RUN"]?.first?.contains(attribute) == true, "group shaky may write \(attribute)")
        }
    }

    @Test func accelerometersUdevDoesNotTagAreTheShakyGroupsToo() throws {
        let rules = try Self.rules().filter { $0.assignments["GROUP"] == ["shaky"] }
        #expect(rules.contains { $0.matches["ATTRS{name}"] == "Nintendo Wii Remote Accelerometer" })
        #expect(rules.contains { $0.matches["ATTRS{name}"] == "ADXL34[56] accelerometer" })
        #expect(rules.contains { $0.matches["ENV{SHAKY_ACCEL_UNITS_PER_G}"] == "?*" })
    }

    @Test func evdevAccelerometersGoToTheShakyGroupAndStartTheDaemon() throws {
        let rule = try #require(try Self.rules().first { $0.matches["ENV{ID_INPUT_ACCELEROMETER}"] == "1" })
        #expect(rule.matches["SUBSYSTEM"] == "input")
        #expect(rule.assignments["GROUP"] == ["shaky"])
        #expect(rule.assignments["TAG"] == ["systemd"])
        #expect(rule.assignments["ENV{SYSTEMD_WANTS}"] == ["shakyd.service"])
    }

    @Test func theMountMatrixFromTheHardwareDatabaseIsLeftAlone() throws {
        for rule in try Self.rules() {
            #expect(rule.assignments.keys.allSatisfy { !$0.contains("ACCEL_MOUNT_MATRIX") })
        }
    }

    @Test func removeEventsChangeNothing() throws {
        let first = try #require(try Self.rules().first)
        #expect(first.matches["ACTION"] == "remove")
        #expect(first.assignments["GOTO"] == ["shaky_end"])
    }
}
