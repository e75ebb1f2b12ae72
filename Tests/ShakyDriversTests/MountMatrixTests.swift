import ShakyDrivers
import Testing

@Suite struct MountMatrixTests {
    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0; 0, 0, 1", [[1.0, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("0, 1, 0; -1, 0, 0; 0, 0, 1", [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]),
        ("0,-1,0;1,0,0;0,0,-1", [[0, -1, 0], [1, 0, 0], [0, 0, -1]]),
        ("  0.5, 0, 0; 0, 2, 0; 0, 0, 1\n", [[0.5, 0, 0], [0, 2, 0], [0, 0, 1]]),
    ])
    func parsesHwdbAndSysfsText(text: String, rows: [[Double]]) throws {
        #expect(try MountMatrix(parsing: text).rows == rows)
    }

    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0", "expected 3 rows"),
        ("1, 0; 0, 1, 0; 0, 0, 1", "row 1 has 2 values"),
        ("1, 0, 0; 0, x, 0; 0, 0, 1", "row 2: \"x\" is not a number"),
        ("1, 0, 0; 0, 1, 0; 0, 0, inf", "row 3: \"inf\" is not a number"),
        ("0, 0, 0; 0, 1, 0; 0, 0, 1", "singular"),
        ("", "expected 3 rows"),
    ])
    func rejectsMalformedText(text: String, problem: String) {
        #expect {
            try MountMatrix(parsing: text)
        } throws: { error in
            "\(error)".contains(problem) && "\(error)".contains("invalid mount matrix")
        }
    }

    @Test(arguments: [
        // identity: nothing changes
        ("1, 0, 0; 0, 1, 0; 0, 0, 1", (1.0, 2.0, 9.81), (1.0, 2.0, 9.81)),
        // chip rotated 90° in the plane: device x = chip y, device y = -chip x
        ("0, 1, 0; -1, 0, 0; 0, 0, 1", (1.0, 2.0, 9.81), (2.0, -1.0, 9.81)),
        // chip mounted upside down: face-up device must still read z = +g
        ("1, 0, 0; 0, -1, 0; 0, 0, -1", (0.0, 0.0, -9.81), (0.0, 0.0, 9.81)),
        // axes swapped and one flipped
        ("0, 0, 1; 1, 0, 0; 0, -1, 0", (1.0, 2.0, 3.0), (3.0, 1.0, -2.0)),
    ])
    func appliesRowByRow(text: String, chip: (Double, Double, Double), device: (Double, Double, Double)) throws {
        let result = try MountMatrix(parsing: text).apply(x: chip.0, y: chip.1, z: chip.2)
        #expect(result.x == device.0 && result.y == device.1 && result.z == device.2)
    }

    @Test func printsBackInTheSameForm() throws {
        #expect(try MountMatrix(parsing: "0,1,0;-1,0,0;0,0,0.5").description == "0, 1, 0; -1, 0, 0; 0, 0, 0.5")
        #expect(MountMatrix.identity.isIdentity)
    }

    @Test func printsAHugeWholeEntryWithoutTrapping() throws {
        #expect(try MountMatrix(parsing: "1e300,0,0;0,1,0;0,0,1").description == "1e+300, 0, 0; 0, 1, 0; 0, 0, 1")
    }
}
