#!/usr/bin/python3
"""Writes the device matrix's umockdev fixtures (run from anywhere; writes beside itself).

Each device is emulated as its Linux 6.1 driver presents it (the driver file is named beside each entry):
the same IIO device and channel names, scan types and index order, scales, triggers and mount-matrix
attributes, or the same input device names, IDs, properties, ABS ranges (fuzz, flat, resolution) and
sibling nodes. For every device it writes:

  NAME.umockdev            the sysfs/udev description (umockdev-run -d)
  NAME.ioctl               evdev only: the ioctl answers libevdev 1.13 asks for (umockdev-run -i)
  NAME.events              evdev only: the motion as kernel events (umockdev-run -e)
  NAME.script              buffered IIO only: the motion as raw scans (umockdev-run -s)
  NAME.poll                polled IIO (and a buffer that never fills): the motion as raw attribute values,
                           for poll-writer.py

The motion, in the frame shakyd reports (after any mount matrix), sampled at the device's own rate:
  0.25 s at rest in orientation A, 0.25 s in orientation B, 0.5 s in A again,
  1.0 s of a firm shake (±2 g, 4 Hz, across gravity), 0.5 s at rest,
  1.0 s of a gentle shake (±0.8 g, 5 Hz, across gravity), 0.1 s at rest.
The Swift test (UmockdevDeviceMatrixTests) holds the same segment times.
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.80665
START = 0.8  # seconds: the first sample's time, and the replay's head start
SEGMENTS = [("restA", 0.25), ("restB", 0.25), ("restA", 0.5), ("firm", 1.0), ("restA", 0.5),
            ("gentle", 1.0), ("restA", 0.1)]

AXES = {"x": 0, "y": 1, "z": 2}


def vector(axis, magnitude):
    v = [0.0, 0.0, 0.0]
    v[AXES[axis[1]]] = magnitude if axis[0] == "+" else -magnitude
    return v


def motion(rate, gravity_a, gravity_b, shake_axis):
    """(time, [x, y, z] in m/s²) at `rate`, in the reported frame."""
    samples = []
    t = 0.0
    step = 1.0 / rate
    index = 0
    for kind, duration in SEGMENTS:
        end = t + duration
        segment_start = t
        while t < end - 1e-9:
            if kind == "restB":
                value = vector(gravity_b, G)
            else:
                value = vector(gravity_a, G)
            if kind in ("firm", "gentle"):
                amplitude, frequency = (2 * G, 4.0) if kind == "firm" else (0.8 * G, 5.0)
                push = amplitude * math.sin(2 * math.pi * frequency * (t - segment_start))
                value = [a + b for a, b in zip(value, vector("+" + shake_axis, push))]
            samples.append((START + index * step, value))
            index += 1
            t = index * step
    return samples


def transpose_apply(matrix, v):
    """chip = Mᵀ · device, for a rotation M (device = M · chip)."""
    return [sum(matrix[r][c] * v[r] for r in range(3)) for c in range(3)]


def write(name, text, binary=False):
    with open(os.path.join(HERE, name), "wb" if binary else "w") as f:
        f.write(text)


# ---------------------------------------------------------------- IIO


def iio_description(dev):
    lines = ["P: %s/iio:device0" % dev["parent"], "N: iio:device0", "E: DEVNAME=/dev/iio:device0",
             "E: DEVTYPE=iio_device", "E: MAJOR=241", "E: MINOR=0", "E: SUBSYSTEM=iio"]
    for key, value in dev.get("properties", {}).items():
        lines.append("E: %s=%s" % (key, value))
    lines.append("A: dev=241:0\\n")
    lines.append("A: name=%s\\n" % dev["name"])
    for key, value in dev["attributes"].items():
        lines.append("A: %s=%s\\n" % (key, value))
    rest = raw_values(dev, vector(dev["gravity"][0], G))
    for axis in "xyz":
        lines.append("A: in_accel_%s_raw=%d\\n" % (axis, rest[AXES[axis]]))
    if dev.get("buffered"):
        lines += ["A: buffer/enable=0\\n", "A: buffer/length=2\\n", "A: buffer/watermark=1\\n"]
        if dev.get("trigger") is not None:
            lines.append("A: trigger/current_trigger=%s\\n" % dev["current_trigger"])
        for element, index, scan_type in dev["scan"]:
            lines.append("A: scan_elements/in_%s_en=0\\n" % element)
            lines.append("A: scan_elements/in_%s_index=%d\\n" % (element, index))
            lines.append("A: scan_elements/in_%s_type=%s\\n" % (element, scan_type))
    text = "\n".join(lines) + "\n"
    for number, trigger in enumerate(dev.get("triggers", [])):
        text += "\nP: %s/trigger%d\nE: SUBSYSTEM=iio\nA: name=%s\\n\n" % (dev["parent"], number, trigger)
    for other in dev.get("other_triggers", []):
        text += "\nP: %s\nE: SUBSYSTEM=iio\nA: name=%s\\n\n" % other
    return text


def raw_values(dev, value):
    chip = transpose_apply(dev["mount"], value) if "mount" in dev else value
    return [int(round(v / dev["scale"] - dev.get("offset", 0))) for v in chip]


def pack_scan(dev, raw, nanoseconds):
    """The scan bytes of the enabled channels accel_x/y/z and timestamp, laid out as libiio expects."""
    storage, little, shift = dev["storage_bits"], dev["little"], dev["shift"]
    fmt = {16: "h", 32: "i"}[storage]
    data = b""
    for value in raw:
        word = value << shift
        data += struct.pack(("<" if little else ">") + fmt, word)
    while len(data) % 8:
        data += b"\0"
    return data + struct.pack("<q", nanoseconds)


def iio_fixture(key, dev):
    write(key + ".umockdev", iio_description(dev))
    samples = motion(dev["rate"], dev["gravity"][0], dev["gravity"][1], dev["shake_axis"])
    if dev.get("buffered") and not dev.get("silent"):
        period_ms = 1000.0 / dev["rate"]
        script = b"d 0 /dev/iio:device0\n"
        lines = []
        due = START * 1000
        sent = 0.0
        for t, value in samples:
            scan = pack_scan(dev, raw_values(dev, value), int(round(t * 1e9)))
            delay = int(round(due - sent))
            sent += delay
            due += period_ms
            escaped = b"".join(b"^`" if b == 0x5E else (bytes([0x5E, b + 64]) if b < 32 else bytes([b]))
                               for b in scan)
            if scan[0] == 0x20 and lines:
                lines[-1] += escaped  # a leading space would be eaten by the delay's scanf
            else:
                lines.append(b"r %d " % delay + escaped)
        write(key + ".script", script + b"\n".join(lines) + b"\n", binary=True)
    else:
        rows = ["%d %d %d %d" % ((int(round((t - START) * 1000)),) + tuple(raw_values(dev, v)))
                for t, v in samples]
        write(key + ".poll", "# milliseconds after the start, in_accel_x_raw, y, z\n" + "\n".join(rows) + "\n")


def i2c(address):
    return "/devices/platform/soc/fe804000.i2c/i2c-1/1-%04x" % address


IIO = {
    # drivers/iio/imu/inv_mpu6050/inv_mpu_core.c: accel be:s16 at scan indexes 0-2 (temp 3, gyro 4-6,
    # timestamp 7), ±2 g = 16384 per g (scale 0.000598), its data-ready trigger "mpu6050-dev0".
    "mpu6050": dict(
        name="mpu6050", parent=i2c(0x68), buffered=True, rate=100, scale=0.000598,
        attributes={"in_accel_scale": "0.000598", "in_accel_x_calibbias": "0", "sampling_frequency": "50",
                    "sampling_frequency_available": "10 20 50 100 200 500", "in_anglvel_x_raw": "0",
                    "in_anglvel_scale": "0.001064724", "in_temp_raw": "0", "in_temp_scale": "2.941176"},
        scan=[("accel_x", 0, "be:s16/16>>0"), ("accel_y", 1, "be:s16/16>>0"), ("accel_z", 2, "be:s16/16>>0"),
              ("temp", 3, "be:s16/16>>0"), ("anglvel_x", 4, "be:s16/16>>0"), ("anglvel_y", 5, "be:s16/16>>0"),
              ("anglvel_z", 6, "be:s16/16>>0"), ("timestamp", 7, "le:s64/64>>0")],
        storage_bits=16, little=False, shift=0, trigger=True, triggers=["mpu6050-dev0"],
        current_trigger="mpu6050-dev0", gravity=("+z", "+x"), shake_axis="x"),
    # drivers/iio/accel/adxl345_core.c (6.1: no buffer): in_accel_*_raw, 3.9 mg per count (scale 0.038300).
    "adxl345-iio": dict(
        name="adxl345", parent=i2c(0x53), buffered=False, rate=100, scale=0.0383,
        attributes={"in_accel_scale": "0.038300", "in_accel_x_calibbias": "0", "sampling_frequency": "100.000000"},
        gravity=("+z", "+y"), shake_axis="x"),
    # drivers/iio/imu/st_lsm6dsx/st_lsm6dsx_core.c with the "st,lsm9ds1-imu" overlay on a Sense HAT: the
    # LSM9DS1's interrupt pins are not wired to the Pi, so no buffer: polled, 0.061 mg per count.
    "sensehat": dict(
        name="lsm9ds1-imu_accel", parent=i2c(0x6a), buffered=False, rate=100, scale=0.000598,
        attributes={"in_accel_scale": "0.000598", "in_accel_scale_available": "0.000598 0.001196 0.002392 0.004786",
                    "sampling_frequency": "10.000",
                    "sampling_frequency_available": "10.000 50.000 119.000 238.000 476.000 952.000"},
        gravity=("+z", "-x"), shake_axis="y"),
    # drivers/iio/accel/st_accel_core.c + st_sensors_trigger.c: le:s12/16>>4, 1 mg per count, the trigger
    # is "<name>-trigger" (not "-dev<N>"), registered beside the device.
    "lis3dh": dict(
        name="lis3dh", parent=i2c(0x18), buffered=True, rate=100, scale=0.009806,
        attributes={"in_accel_scale": "0.009806", "in_accel_scale_available": "0.009806 0.019613 0.039226 0.117678",
                    "sampling_frequency": "100", "sampling_frequency_available": "1 10 25 50 100 200 400 1600"},
        scan=[("accel_x", 0, "le:s12/16>>4"), ("accel_y", 1, "le:s12/16>>4"), ("accel_z", 2, "le:s12/16>>4"),
              ("timestamp", 3, "le:s64/64>>0")],
        storage_bits=16, little=True, shift=4, trigger=True, triggers=["lis3dh-trigger"],
        current_trigger="lis3dh-trigger", gravity=("+z", "+y"), shake_axis="x"),
    # drivers/iio/accel/mma8452.c: be:s12/16>>4, ±2 g = 1024 per g (scale 0.009577), trigger "mma8452-dev0".
    "mma8452": dict(
        name="mma8452", parent=i2c(0x1c), buffered=True, rate=100, scale=0.009577,
        attributes={"in_accel_scale": "0.009577", "in_accel_scale_available": "0.009577 0.019154 0.038307",
                    "sampling_frequency": "800", "sampling_frequency_available": "800 400 200 100 50 12.5 6.25 1.56",
                    "in_accel_x_calibbias": "0"},
        scan=[("accel_x", 0, "be:s12/16>>4"), ("accel_y", 1, "be:s12/16>>4"), ("accel_z", 2, "be:s12/16>>4"),
              ("timestamp", 3, "le:s64/64>>0")],
        storage_bits=16, little=False, shift=4, trigger=True, triggers=["mma8452-dev0"], current_trigger="",
        gravity=("+z", "-y"), shake_axis="x"),
    # drivers/iio/accel/bmc150-accel-core.c on a tablet (BMA250E, no hwdb entry): le:s10/16>>6, 256 per g,
    # the chip sits rotated and says so in in_mount_matrix (IIO_SHARED_BY_DIR); triggers "<name>-dev0" and
    # "<name>-any-motion-dev0"; no current trigger.
    "bmc150": dict(
        name="bma250e", parent="/devices/pci0000:00/808622C1:00/i2c-0/i2c-BOSC0200:00", buffered=True, rate=125,
        scale=0.038357, mount=[[0, -1, 0], [1, 0, 0], [0, 0, 1]],
        attributes={"in_accel_scale": "0.038357", "in_accel_scale_available": "0.038357 0.076621 0.153242 0.306484",
                    "sampling_frequency": "15.620000",
                    "sampling_frequency_available": "15.620000 31.260000 62.500000 125 250 500 1000 2000",
                    "in_mount_matrix": "0, -1, 0; 1, 0, 0; 0, 0, 1"},
        scan=[("accel_x", 0, "le:s10/16>>6"), ("accel_y", 1, "le:s10/16>>6"), ("accel_z", 2, "le:s10/16>>6"),
              ("timestamp", 3, "le:s64/64>>0")],
        storage_bits=16, little=True, shift=6, trigger=True, triggers=["bma250e-any-motion-dev0", "bma250e-dev0"],
        current_trigger="", gravity=("+x", "+z"), shake_axis="y"),
    # drivers/iio/accel/kxcjk-1013.c (KXCJ9, a Windows tablet with a hwdb ACCEL_MOUNT_MATRIX): le:s12/16>>4,
    # 1024 per g (scale 0.009582), triggers "<name>-dev0" and "<name>-any-motion-dev0".
    "kxcj9": dict(
        name="kxcj91008", parent="/devices/pci0000:00/808622C1:01/i2c-1/i2c-KXCJ9000:00", buffered=True, rate=100,
        scale=0.009582, mount=[[-1, 0, 0], [0, 1, 0], [0, 0, -1]],
        properties={"ACCEL_MOUNT_MATRIX": "-1, 0, 0; 0, 1, 0; 0, 0, -1"},
        attributes={"in_accel_scale": "0.009582", "in_accel_scale_available": "0.009582 0.019163 0.038326",
                    "sampling_frequency": "12.500000",
                    "sampling_frequency_available": "0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 "
                                                    "400 800 1600"},
        scan=[("accel_x", 0, "le:s12/16>>4"), ("accel_y", 1, "le:s12/16>>4"), ("accel_z", 2, "le:s12/16>>4"),
              ("timestamp", 3, "le:s64/64>>0")],
        storage_bits=16, little=True, shift=4, trigger=True, triggers=["kxcj91008-dev0", "kxcj91008-any-motion-dev0"],
        current_trigger="", gravity=("+z", "+x"), shake_axis="y"),
    # drivers/iio/accel/hid-sensor-accel-3d.c: le:s32, in_accel_sampling_frequency and in_accel_hysteresis with no
    # _available list (12.5 Hz by default), trigger "accel_3d-dev0" on the HID sensor's platform device.
    "hid-sensor-hub": dict(
        name="accel_3d", parent="/devices/pci0000:00/0000:00:13.0/{33AECD58-B679-4E54-9BD9-A04D34F0C226}/"
                                "001F:8087:0AC2.0001/HID-SENSOR-200073.2.auto",
        buffered=True, rate=100, scale=0.0980665,
        attributes={"in_accel_scale": "0.098066500", "in_accel_offset": "0", "in_accel_sampling_frequency": "12.500000",
                    "in_accel_hysteresis": "0.050000"},
        scan=[("accel_x", 0, "le:s32/32>>0"), ("accel_y", 1, "le:s32/32>>0"), ("accel_z", 2, "le:s32/32>>0"),
              ("timestamp", 3, "le:s64/64>>0")],
        storage_bits=32, little=True, shift=0, trigger=True, triggers=["accel_3d-dev0"], current_trigger="",
        gravity=("+z", "-y"), shake_axis="x"),
}
# The same MPU-6050 on a GY-521 board whose INT pin is not wired: the trigger exists but never fires.
IIO["mpu6050-unwired"] = dict(IIO["mpu6050"], silent=True)
# The LIS3DH with its trigger not yet set: shakyd finds "lis3dh-trigger" beside it (another driver's
# "-dev0" trigger elsewhere must not be taken).
IIO["lis3dh-untriggered"] = dict(
    IIO["lis3dh"], current_trigger="",
    other_triggers=[("/devices/platform/soc/fe804000.i2c/i2c-1/1-0068/trigger9", "mpu6050-dev0")])

# ---------------------------------------------------------------- evdev


def bits(numbers, size):
    buffer = bytearray(size)
    for n in numbers:
        buffer[n // 8] |= 1 << (n % 8)
    return bytes(buffer)


EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0, 1, 3, 4
MSC_TIMESTAMP = 5
INPUT_PROP_ACCELEROMETER = 6


def ioctl_file(node, dev):
    name = dev["name"].encode()
    events = [EV_SYN, EV_ABS] + ([EV_MSC] if dev.get("msc") else [])
    absinfo = dev["abs"]
    rest = [0, 0, 0] if dev.get("stuck_at_zero") else raw_evdev(dev, vector(dev["gravity"][0], G))
    lines = ["@DEV %s" % node,
             "EVIOCGBIT(0) 8 " + bits(events, 8).hex().upper(),
             "EVIOCGNAME(0) %d %s" % (len(name) + 1, name.ljust(255, b"\0").hex().upper()),
             "EVIOCGID 0 " + struct.pack("<4H", *dev["id"]).hex().upper(),
             "EVIOCGVERSION 0 " + struct.pack("<i", 0x010001).hex().upper(),
             "EVIOCGPROP(0) 8 " + bits([INPUT_PROP_ACCELEROMETER] if dev.get("prop") else [], 8).hex().upper()]
    for ev, size in ((1, 96), (2, 8), (3, 8), (4, 8), (5, 8), (17, 8), (18, 8), (21, 16)):
        if ev == EV_ABS:
            payload = bits(sorted(absinfo), size)
        elif ev == EV_MSC and dev.get("msc"):
            payload = bits([MSC_TIMESTAMP], size)
        else:
            payload = bytes(size)
        lines.append("EVIOCGBIT(%d) %d %s" % (ev, size, payload.hex().upper()))
    lines += ["EVIOCGKEY(0) 96 " + bytes(96).hex().upper(), "EVIOCGLED(0) 8 " + bytes(8).hex().upper(),
              "EVIOCGSW(0) 8 " + bytes(8).hex().upper()]
    for code in sorted(absinfo):
        low, high, fuzz, flat, resolution = absinfo[code]
        value = rest[dev["codes"].index(code)] if code in dev["codes"] else 0
        label = "EVIOCGABS" if code == 0 else "EVIOCGABS(%d)" % code
        lines.append("%s 0 %s" % (label, struct.pack("<6i", value, low, high, fuzz, flat, resolution).hex().upper()))
    return "\n".join(lines) + "\n"


def raw_evdev(dev, value):
    return [int(round(v / G * dev["units"] + dev.get("center", (0, 0, 0))[i])) for i, v in enumerate(value)]


def input_description(dev, number):
    parent = "%s/input%d" % (dev["parent"], number)
    ev = (1 << EV_SYN) | (1 << EV_ABS) | ((1 << EV_MSC) if dev.get("msc") else 0)
    abs_mask = sum(1 << code for code in dev["abs"])
    bus, vendor, product, version = dev["id"]
    props = dict(dev.get("udev", {}))
    lines = ["P: %s/event%d" % (parent, number), "N: input/event%d" % number,
             "E: DEVNAME=/dev/input/event%d" % number, "E: MAJOR=13", "E: MINOR=%d" % (64 + number),
             "E: SUBSYSTEM=input", "E: ID_INPUT=1"]
    lines += ["E: %s=%s" % item for item in props.items()]
    lines += ["A: dev=13:%d\\n" % (64 + number), "",
              "P: %s" % parent, "E: SUBSYSTEM=input",
              "E: PRODUCT=%x/%x/%x/%x" % (bus, vendor, product, version),
              'E: NAME="%s"' % dev["name"], "E: PROP=%x" % (0x40 if dev.get("prop") else 0),
              "E: EV=%x" % ev, "E: ABS=%x" % abs_mask]
    if dev.get("msc"):
        lines.append("E: MSC=20")
    lines += ["E: ID_INPUT=1"] + ["E: %s=%s" % item for item in props.items()]
    lines += ["A: name=%s\\n" % dev["name"], "A: properties=%x\\n" % (0x40 if dev.get("prop") else 0),
              "A: capabilities/ev=%x\\n" % ev, "A: capabilities/abs=%x\\n" % abs_mask,
              "A: capabilities/msc=%s\\n" % ("20" if dev.get("msc") else "0"),
              "A: capabilities/key=0\\n", "A: capabilities/rel=0\\n",
              "A: id/bustype=%04x\\n" % bus, "A: id/vendor=%04x\\n" % vendor,
              "A: id/product=%04x\\n" % product, "A: id/version=%04x\\n" % version]
    text = "\n".join(lines) + "\n"
    # The controller's other nodes (gamepad, touchpad, buttons): there, but not accelerometers.
    for offset, sibling in enumerate(dev.get("siblings", []), start=1):
        other = "%s/input%d" % (dev["parent"], number + offset)
        text += ("\nP: %s/event%d\nN: input/event%d\nE: DEVNAME=/dev/input/event%d\nE: MAJOR=13\nE: MINOR=%d\n"
                 "E: SUBSYSTEM=input\nE: ID_INPUT=1\nE: ID_INPUT_JOYSTICK=1\nA: dev=13:%d\\n\n\n"
                 "P: %s\nE: SUBSYSTEM=input\nE: NAME=\"%s\"\nE: ID_INPUT=1\nE: ID_INPUT_JOYSTICK=1\n"
                 "A: name=%s\\n\n") % (other, number + offset, number + offset, number + offset,
                                        64 + number + offset, 64 + number + offset, other, sibling, sibling)
    return text


def event_line(t, kind, code, value):
    seconds = int(t)
    microseconds = int(round((t - seconds) * 1e6))
    if microseconds >= 1000000:
        seconds, microseconds = seconds + 1, microseconds - 1000000
    # umockdev reads the microseconds as an integer, octal when it starts with 0: write it without padding.
    return "E: %d.%d %04x %04x %d" % (seconds, microseconds, kind, code, value)


def events_file(node, dev):
    samples = motion(dev["rate"], dev["gravity"][0], dev["gravity"][1], dev["shake_axis"])
    lines = ["# EVEMU 1.3", "# device %s" % node]
    if dev.get("stuck_at_zero"):
        return "\n".join(lines) + "\n"
    per_report = dev.get("per_report", 1)
    for index, (t, value) in enumerate(samples):
        raw = raw_evdev(dev, value)
        report = index // per_report
        # hid-nintendo sends three samples per report, all with (nearly) the report's time; MSC_TIMESTAMP says
        # when each was taken.
        event_time = START + report * per_report / dev["rate"] + (index % per_report) * 1e-6
        for code, v in zip(dev["codes"], raw):
            lines.append(event_line(event_time, EV_ABS, code, v))
        if dev.get("msc"):
            microseconds = int(round((t - START) * 1e6))
            if dev.get("msc_double_advance"):
                # 6.1's joycon_parse_imu_report adds a report period when a report arrives and another over its
                # three samples: the counter runs two report periods per report, the samples in one 5 ms apart.
                step = int(round(1e6 / dev["rate"]))
                microseconds = report * 2 * per_report * step + (index % per_report) * step
            lines.append(event_line(event_time, EV_MSC, MSC_TIMESTAMP, microseconds + 7000))
        lines.append(event_line(event_time, EV_SYN, 0, 0))
    return "\n".join(lines) + "\n"


def usb(path):
    return "/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.2/" + path


def bluetooth(path):
    return "/devices/platform/soc/fe201000.serial/tty/ttyAMA0/hci0/hci0:11/" + path


ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ = range(6)

EVDEV = {
    # drivers/hid/hid-playstation.c (ps_sensors_create): accel ABS_X/Y/Z ±4 g at 8192 per g (fuzz 16),
    # gyro ABS_RX/RY/RZ at 1024 per °/s, INPUT_PROP_ACCELEROMETER, MSC_TIMESTAMP; lying flat reads +y. Reports at
    # 125 Hz here.
    "dualsense": dict(
        name="Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
        parent=usb("1-1.2:1.3/0003:054C:0CE6.0003/input"), id=(3, 0x054C, 0x0CE6, 0x8111), prop=True, msc=True,
        abs={ABS_X: (-32768, 32768, 16, 0, 8192), ABS_Y: (-32768, 32768, 16, 0, 8192),
             ABS_Z: (-32768, 32768, 16, 0, 8192), ABS_RX: (-2048000, 2048000, 16, 0, 1024),
             ABS_RY: (-2048000, 2048000, 16, 0, 1024), ABS_RZ: (-2048000, 2048000, 16, 0, 1024)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=8192, rate=125, gravity=("+y", "+z"), shake_axis="x",
        udev={"ID_INPUT_ACCELEROMETER": "1"},
        siblings=["Sony Interactive Entertainment DualSense Wireless Controller",
                  "Sony Interactive Entertainment DualSense Wireless Controller Touchpad"]),
    # drivers/hid/hid-sony.c (6.1; hid-playstation from 6.2): DualShock 4 motion sensors, 8192 per g.
    "dualshock4": dict(
        name="Sony Interactive Entertainment Wireless Controller Motion Sensors",
        parent=bluetooth("0005:054C:09CC.0004/input"), id=(5, 0x054C, 0x09CC, 0x8100), prop=True, msc=True,
        abs={ABS_X: (-32768, 32768, 16, 0, 8192), ABS_Y: (-32768, 32768, 16, 0, 8192),
             ABS_Z: (-32768, 32768, 16, 0, 8192), ABS_RX: (-2097152, 2097152, 16, 0, 1024),
             ABS_RY: (-2097152, 2097152, 16, 0, 1024), ABS_RZ: (-2097152, 2097152, 16, 0, 1024)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=8192, rate=125, gravity=("+y", "-x"), shake_axis="z",
        udev={"ID_INPUT_ACCELEROMETER": "1"},
        siblings=["Sony Interactive Entertainment Wireless Controller",
                  "Sony Interactive Entertainment Wireless Controller Touchpad"]),
    # drivers/hid/hid-nintendo.c (joycon_input_create): "<controller> (IMU)", accel ±8 g at 4096 per g (fuzz 10),
    # gyro at 14247 per °/s; three IMU samples per 15 ms report, spaced 5 ms in MSC_TIMESTAMP, which 6.1's
    # joycon_parse_imu_report advances by 30 ms per report (msc_double_advance).
    "switch-pro": dict(
        name="Nintendo Switch Pro Controller (IMU)", parent=bluetooth("0005:057E:2009.0005/input"),
        id=(5, 0x057E, 0x2009, 0x8001), prop=True, msc=True, per_report=3, msc_double_advance=True,
        abs={ABS_X: (-32767, 32767, 10, 0, 4096), ABS_Y: (-32767, 32767, 10, 0, 4096),
             ABS_Z: (-32767, 32767, 10, 0, 4096), ABS_RX: (-32767000, 32767000, 10, 0, 14247),
             ABS_RY: (-32767000, 32767000, 10, 0, 14247), ABS_RZ: (-32767000, 32767000, 10, 0, 14247)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=4096, rate=200, gravity=("+z", "+x"), shake_axis="y",
        udev={"ID_INPUT_ACCELEROMETER": "1"}, siblings=["Nintendo Switch Pro Controller"]),
    # drivers/hid/hid-wiimote-modules.c (wiimod_accel_in_accel, wiimod_accel_probe): ABS_RX/RY/RZ = the 10-bit
    # reading − 0x200, ±500 (fuzz 2, flat 4), no resolution, no property, no calibration applied; 1 g is about
    # 104 counts (factory calibration 0x80 → 0x9A in the upper 8 bits); udev's input_id calls it a joystick.
    "wiimote": dict(
        name="Nintendo Wii Remote Accelerometer", parent=bluetooth("0005:057E:0306.0006/input"),
        id=(5, 0x057E, 0x0306, 0x8600), prop=False,
        abs={ABS_RX: (-500, 500, 2, 4, 0), ABS_RY: (-500, 500, 2, 4, 0), ABS_RZ: (-500, 500, 2, 4, 0)},
        codes=[ABS_RX, ABS_RY, ABS_RZ], units=104, rate=100, gravity=("+z", "+y"), shake_axis="x",
        udev={"ID_INPUT_JOYSTICK": "1"},
        siblings=["Nintendo Wii Remote", "Nintendo Wii Remote IR"]),
    # drivers/misc/lis3lv02d/lis3lv02d.c: a polled input device (20 Hz) reporting milli-g, ±2 g-ish range,
    # fuzz 3, no resolution, no property; udev's hwdb tags it ID_INPUT_ACCELEROMETER.
    "lis3lv02d": dict(
        name="ST LIS3LV02DL Accelerometer", parent="/devices/platform/lis3lv02d/input",
        id=(0x19, 0, 0, 0), prop=False,
        abs={ABS_X: (-2000, 2000, 3, 3, 0), ABS_Y: (-2000, 2000, 3, 3, 0), ABS_Z: (-2000, 2000, 3, 3, 0)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=1000, rate=50, gravity=("+z", "+x"), shake_axis="y",
        udev={"ID_INPUT_ACCELEROMETER": "1"}),
    # drivers/hid/hid-udraw-ps3.c (udraw_setup_accel, clamp_accel): INPUT_PROP_ACCELEROMETER, ABS_X/Y/Z declared
    # ±512 with no resolution, but every reading is clamped to 490…534 and divided by (534 − 490) × 0xFF in
    # integers: the node reports 0 on every axis and, since nothing changes, sends no event at all.
    "udraw": dict(
        name="THQ uDraw Game Tablet for PS3 Accelerometer", parent=usb("1-1.2:1.0/0003:20D6:CB17.0007/input"),
        id=(3, 0x20D6, 0xCB17, 0x0110), prop=True, stuck_at_zero=True,
        abs={ABS_X: (-512, 512, 0, 0, 0), ABS_Y: (-512, 512, 0, 0, 0), ABS_Z: (-512, 512, 0, 0, 0)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=256, rate=100, gravity=("+z", "+x"),
        shake_axis="y", udev={"ID_INPUT_ACCELEROMETER": "1"},
        siblings=["THQ uDraw Game Tablet for PS3", "THQ uDraw Game Tablet for PS3 Pen"]),
    # drivers/input/misc/adxl34x.c (the input driver, not IIO): full-resolution counts (256 per g) on
    # ABS_X/Y/Z ±4096, fuzz 3, flat 3, no resolution or property.
    "adxl345-input": dict(
        name="ADXL345 accelerometer", parent="/devices/platform/soc/fe804000.i2c/i2c-1/1-0053/input",
        id=(0x18, 0, 345, 0), prop=False,
        abs={ABS_X: (-4096, 4096, 3, 3, 0), ABS_Y: (-4096, 4096, 3, 3, 0), ABS_Z: (-4096, 4096, 3, 3, 0)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=256, rate=100, gravity=("+z", "-y"), shake_axis="x"),
    # Not a real product: an accelerometer whose driver sets the property but no resolution, for the refusal
    # that names the udev rule to add.
    "acme-tilt": dict(
        name="Acme Tilt Sensor", parent="/devices/platform/acme-tilt/input", id=(0x19, 0, 0, 0), prop=True,
        abs={ABS_X: (-512, 512, 0, 0, 0), ABS_Y: (-512, 512, 0, 0, 0), ABS_Z: (-512, 512, 0, 0, 0)},
        codes=[ABS_X, ABS_Y, ABS_Z], units=256, rate=100, gravity=("+z", "+x"), shake_axis="y",
        udev={"ID_INPUT_ACCELEROMETER": "1"}),
}


def main():
    for key, dev in IIO.items():
        iio_fixture(key, dev)
    for number, (key, dev) in enumerate(EVDEV.items(), start=30):
        node = "/dev/input/event%d" % number
        write(key + ".umockdev", input_description(dev, number))
        write(key + ".ioctl", ioctl_file(node, dev))
        write(key + ".events", events_file(node, dev))


if __name__ == "__main__":
    main()
