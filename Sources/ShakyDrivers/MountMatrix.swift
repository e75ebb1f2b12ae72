import ShakyCore

/// How a sensor chip sits in its device: a 3×3 matrix turning chip axes into device axes.
///
/// Both sources of the matrix use the same text, three rows separated by `;`, values by `,`:
/// systemd's hwdb property `ACCEL_MOUNT_MATRIX` and the kernel's IIO attribute
/// `in_accel_mount_matrix` / `mount_matrix` (`"x1, y1, z1; x2, y2, z2; x3, y3, z3"`). Applying it is
/// a matrix–vector product, row by row: `device.x = x1·x + y1·y + z1·z`, and so on, so that "up"
/// reads the same on every device.
public struct MountMatrix: Sendable, Hashable, CustomStringConvertible {
    /// The rows, each `[a, b, c]`.
    public var rows: [[Double]]

    /// The identity: the chip is aligned with the device.
    public static let identity = MountMatrix(uncheckedRows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    private init(uncheckedRows rows: [[Double]]) {
        self.rows = rows
    }

    /// Creates a matrix from three rows of three finite values; `nil` otherwise.
    public init?(rows: [[Double]]) {
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else { return nil }
        self.rows = rows
    }

    /// Parses `"a, b, c; d, e, f; g, h, i"` (spaces optional).
    ///
    /// Throws ``MountMatrixError`` when the text does not have three rows of three numbers, or when the
    /// matrix is singular (it would flatten readings, so it cannot be a mounting).
    public init(parsing text: String) throws(MountMatrixError) {
        let rowTexts = text.trimmingWhitespace().split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else {
            throw MountMatrixError(text: text, problem: "expected 3 rows separated by \";\", found \(rowTexts.count)")
        }
        var rows: [[Double]] = []
        for (index, rowText) in rowTexts.enumerated() {
            let fields = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 else {
                throw MountMatrixError(
                    text: text, problem: "row \(index + 1) has \(fields.count) values, expected 3")
            }
            var row: [Double] = []
            for field in fields {
                let trimmed = String(field).trimmingWhitespace()
                guard let value = Double(trimmed), value.isFinite else {
                    throw MountMatrixError(text: text, problem: "row \(index + 1): \"\(trimmed)\" is not a number")
                }
                row.append(value)
            }
            rows.append(row)
        }
        let matrix = MountMatrix(uncheckedRows: rows)
        guard abs(matrix.determinant) > 1e-9 else {
            throw MountMatrixError(text: text, problem: "the matrix is singular (determinant 0)")
        }
        self = matrix
    }

    /// The determinant; ±1 for a rotation or reflection.
    public var determinant: Double {
        let r = rows
        return r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1])
            - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
            + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0])
    }

    /// Whether this is the identity (nothing to do).
    public var isIdentity: Bool { self == .identity }

    /// Turns a chip reading into a device reading.
    @inline(__always)
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double) {
        (
            rows[0][0] * x + rows[0][1] * y + rows[0][2] * z,
            rows[1][0] * x + rows[1][1] * y + rows[1][2] * z,
            rows[2][0] * x + rows[2][1] * y + rows[2][2] * z
        )
    }

    /// Turns a chip sample into a device sample, keeping its timestamp.
    public func apply(_ sample: AccelSample) -> AccelSample {
        if isIdentity { return sample }
        let (x, y, z) = apply(x: sample.x, y: sample.y, z: sample.z)
        return AccelSample(timestamp: sample.timestamp, x: x, y: y, z: z)
    }

    /// The matrix in the hwdb / sysfs text form.
    public var description: String {
        rows.map { row in
            row.map { $0 == $0.rounded() && $0.magnitude < 1e15 ? String(Int($0)) : String($0) }.joined(separator: ", ")
        }
        .joined(separator: "; ")
    }
}

/// A mount matrix that cannot be used, with the text and what is wrong with it.
public struct MountMatrixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as found.
    public var text: String
    /// What is wrong.
    public var problem: String

    public var description: String { "invalid mount matrix \"\(text)\": \(problem)" }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
