import ShakyDrivers
import Testing

@Suite struct IIOScanFormatTests {
    @Test(
        arguments: [
            ("le:s16/32>>0", [0xFE, 0xFF, 0x12, 0x34], -2),
            ("le:s16/16>>0", [0x84, 0x03], 900),
            ("le:s16/16>>0", [0x7C, 0xFC], -900),
            ("le:u16/16>>0", [0x34, 0x12], 4660),
            ("be:s16/16>>0", [0x80, 0x00], -32768),
            ("be:s12/16>>4", [0xFF, 0xF0], -1),
            ("be:s12/16>>4", [0x7F, 0xF0], 2047),
            ("be:s12/16>>4", [0x80, 0x00], -2048),
            ("be:s12/16>>4", [0x06, 0x4F], 100),
            ("le:s14/16>>2", [0xFC, 0xFF], -1),
            ("le:u12/16>>4", [0xF0, 0xFF], 4095),
            ("le:s24/32>>8", [0x00, 0x00, 0x00, 0x80], -8_388_608),
            ("le:s8/8>>0", [0xFF], -1),
            ("le:s64/64>>0", [0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0], 1_000_000_000),
            ("be:s64/64>>0", [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], -2),
        ] as [(String, [UInt8], Int64)])
    func decodesTheKernelsScanTypes(type: String, bytes: [UInt8], value: Int64) throws {
        let format = try #require(IIOScanFormat(parsing: type))
        #expect(format.decode(bytes) == value)
        #expect(format.description == type)
    }

    @Test func decodesAtAnOffsetInsideAScan() throws {
        let format = try #require(IIOScanFormat(parsing: "le:s16/16>>0"))
        #expect(format.decode([0x00, 0x00, 0x00, 0x02, 0xFF, 0xFF], at: 2) == 512)
        #expect(format.decode([0x00, 0x00, 0x00, 0x02, 0xFF, 0xFF], at: 4) == -1)
    }

    @Test func readsTheRepeatCount() throws {
        let format = try #require(IIOScanFormat(parsing: "le:s12/16X2>>4"))
        #expect(format.repeatCount == 2 && format.bits == 12 && format.storageBytes == 2 && format.shift == 4)
    }

    @Test(arguments: [
        "", "le", "xx:s16/16>>0", "le:q16/16>>0", "le:s16/16", "le:s17/16>>0", "le:s16/12>>0", "le:s12/16>>8",
        "le:s0/16>>0", "le:s16/24>>0", "le:s16/x>>0",
    ])
    func rejectsWhatIsNotAScanType(type: String) {
        #expect(IIOScanFormat(parsing: type) == nil)
    }
}
