#!/usr/bin/python3
"""Write the emulated buzzer devices: buzzers.umockdev (sysfs and udev properties) and one
buzzer-eventNN.ioctl per device (the evdev ioctl answers libevdev 1.x asks for, in umockdev's
ioctl-tree text format). Each device copies what its kernel driver reports:

- event30, a PlayStation Buzz! dongle: drivers/hid/hid-sony.c (BUZZ_CONTROLLER, USB 054c:0002;
  buzz_keymap maps the 4 handsets x 5 buttons to BTN_TRIGGER_HAPPY1..20; sony_leds_init names the
  four LEDs "<hid device>::buzz1".."::buzz4", max_brightness 1).
- event31, a DragonRise arcade-button encoder: drivers/hid/hid-dr.c (USB 0079:0006), buttons as
  hid-input maps a generic joystick's 12 buttons: BTN_TRIGGER, BTN_THUMB … BTN_BASE6, axes ABS_X/ABS_Y.
- event32, GPIO buttons: drivers/input/keyboard/gpio_keys.c (BUS_HOST, vendor 0x0001, product 0x0001,
  version 0x0100; the name is the device-tree node's, here "button@11" as dtoverlay=gpio-key makes it),
  with two keys, KEY_1 and KEY_2.
- event33, a laptop keyboard: drivers/input/keyboard/atkbd.c ("AT Translated Set 2 keyboard", BUS_I8042,
  vendor 0x0001, product 0x0001, version 0xab41), keys KEY_ESC..KEY_F12.
- event34, a power button: drivers/acpi/button.c ("Power Button", KEY_POWER only): rejected.

buzzers-shared-identity.umockdev (with buzzer-event40.ioctl … buzzer-event45.ioctl and one .events file each) holds
devices that share udev's identity properties, as the black-box tests found them:
- event40 and event41, two DualShock 4 pads paired with one Bluetooth adapter: drivers/hid/hid-sony.c over
  hidp ("Wireless Controller", BUS_BLUETOOTH 054c:09cc), both below the adapter's USB port (so both have its
  ID_PATH), each with its own address in the input device's `uniq` (hidp copies the remote address there).
- event42 and event43, the two players' inputs of one dual arcade encoder: two input devices of one USB
  interface, with the same name, ID_PATH and ID_SERIAL.
- event44 and event45, two identical virtual foot switches (uinput): no ID_PATH, no serial, the same name.
Each presses one key at its own kernel time (6.1 s, 6.2 s … 6.6 s).

Run it in this folder after changing a device: python3 make-buzzer-fixtures.py
"""
import struct

EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0, 1, 3, 4


def hexs(data):
    return data.hex().upper()


def bits(numbers, size):
    buffer = bytearray(size)
    for number in numbers:
        buffer[number // 8] |= 1 << (number % 8)
    return bytes(buffer)


def absinfo(value, low, high):
    return struct.pack("<6i", value, low, high, 0, 15, 0)


DEVICES = [
    dict(node=30, name="Logitech Logitech Buzz(tm) Controller V1", id=(3, 0x054C, 0x0002, 0x0110),
         hid="0003:054C:0002.0001", usb="1-2", port="usb-0:2:1.0", serial="Logitech_Logitech_Buzz_tm__Controller_V1",
         keys=list(range(0x2C0, 0x2C0 + 20)), abs=[], leds=["buzz1", "buzz2", "buzz3", "buzz4"]),
    dict(node=31, name="DragonRise Inc.   Generic   USB  Joystick  ", id=(3, 0x0079, 0x0006, 0x0110),
         hid="0003:0079:0006.0002", usb="1-3", port="usb-0:3:1.0", serial="DragonRise_Inc._Generic_USB_Joystick",
         keys=list(range(0x120, 0x12C)), abs=[0, 1], leds=[]),
    dict(node=32, name="button@11", id=(0x19, 1, 1, 0x0100), platform="button@11", keys=[2, 3], abs=[], leds=[]),
    dict(node=33, name="AT Translated Set 2 keyboard", id=(0x11, 1, 1, 0xAB41), platform="i8042/serio0",
         path_id="platform-i8042-serio-0", keys=list(range(1, 89)), abs=[], leds=[]),
    dict(node=34, name="Power Button", id=(0x19, 0, 1, 0), platform="LNXSYSTM:00/LNXPWRBN:00",
         path_id="acpi-LNXPWRBN:00", keys=[116], abs=[], leds=[]),
]


SHARED_IDENTITY_DEVICES = [
    dict(node=40 + index, name="Wireless Controller", id=(5, 0x054C, 0x09CC, 0x8100),
         parent="/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/bluetooth/hci0/hci0:%d/0005:054C:09CC.%04X"
         % (11 + index, 5 + index),
         path_id="pci-0000:00:14.0-usb-0:4:1.0", extra=["ID_BUS=bluetooth"], uniq=uniq,
         keys=[0x130, 0x131, 0x133, 0x134] + list(range(0x136, 0x13E)), abs=[], leds=[],
         press=(6.1 + index / 10, 0x130))
    for index, uniq in enumerate(["a4:ae:12:00:00:01", "a4:ae:12:00:00:02"])
] + [
    dict(node=42 + index, name="Xin-Mo Xin-Mo Dual Arcade", id=(3, 0x16C0, 0x05E1, 0x0100),
         parent="/devices/pci0000:00/0000:00:14.0/usb1/1-5/1-5:1.0/0003:16C0:05E1.0007",
         path_id="pci-0000:00:14.0-usb-0:5:1.0", serial="Xin-Mo_Xin-Mo_Dual_Arcade",
         keys=list(range(0x120, 0x12C)), abs=[], leds=[], press=(6.3 + index / 10, 0x120))
    for index in range(2)
] + [
    dict(node=44 + index, name="Shaky Foot Switch", id=(3, 0x1234, 0x5678, 1), parent="/devices/virtual/input",
         path_id="", keys=[28], abs=[], leds=[], press=(6.5 + index / 10, 28))
    for index in range(2)
]


def sysfs_parent(device):
    if "parent" in device:
        return device["parent"]
    if "hid" in device:
        return "/devices/pci0000:00/0000:00:14.0/usb1/%s/%s:1.0/%s" % (device["usb"], device["usb"], device["hid"])
    return "/devices/platform/%s" % device["platform"]


def description(devices):
    blocks = []
    for device in devices:
        node = device["node"]
        parent = sysfs_parent(device)
        # A virtual (uinput) device's input device sits right in /devices/virtual/input.
        input_path = ("%s/input%d" if parent.endswith("/input") else "%s/input/input%d") % (parent, node)
        path_id = device["path_id"] if "path_id" in device else (
            "pci-0000:00:14.0-" + device["port"] if "port" in device else "platform-" + device["platform"])
        properties = ["ID_INPUT=1"] + (["ID_PATH=" + path_id] if path_id else [])
        if "serial" in device:
            properties.append("ID_SERIAL=" + device["serial"])
        properties += device.get("extra", [])
        ev = [EV_SYN, EV_KEY] + ([EV_ABS] if device["abs"] else [])
        blocks.append("\n".join([
            "P: %s/event%d" % (input_path, node),
            "N: input/event%d" % node,
            "E: DEVNAME=/dev/input/event%d" % node,
            "E: MAJOR=13",
            "E: MINOR=%d" % (64 + node),
            "E: SUBSYSTEM=input",
        ] + ["E: " + p for p in properties] + [
            "A: dev=13:%d\\n" % (64 + node),
        ]))
        bustype, vendor, product, version = device["id"]
        blocks.append("\n".join([
            "P: %s" % input_path,
            "E: SUBSYSTEM=input",
            'E: NAME="%s"' % device["name"],
            "E: PRODUCT=%x/%x/%x/%x" % (bustype, vendor, product, version),
        ] + ["E: " + p for p in properties] + [
            "A: name=%s\\n" % device["name"],
        ] + (["A: uniq=%s\\n" % device["uniq"]] if "uniq" in device else []) + [
            "A: capabilities/ev=%x\\n" % sum(1 << e for e in ev),
            "A: id/bustype=%04x\\n" % bustype,
            "A: id/vendor=%04x\\n" % vendor,
            "A: id/product=%04x\\n" % product,
            "A: id/version=%04x\\n" % version,
        ]))
        for led in device["leds"]:
            name = "%s::%s" % (device["hid"], led)
            blocks.append("\n".join([
                "P: %s/leds/%s" % (parent, name),
                "E: SUBSYSTEM=leds",
                "A: brightness=0\\n",
                "A: max_brightness=1\\n",
            ]))
    return "\n\n".join(blocks) + "\n"


def ioctls(device):
    node = device["node"]
    name = device["name"].encode()
    ev = [EV_SYN, EV_KEY] + ([EV_ABS] if device["abs"] else [])
    lines = ["@DEV /dev/input/event%d" % node]
    lines.append("EVIOCGBIT(0) 8 " + hexs(bits(ev, 8)))
    lines.append("EVIOCGNAME(0) %d %s" % (len(name) + 1, hexs(name.ljust(255, b"\0"))))
    lines.append("EVIOCGID 0 " + hexs(struct.pack("<4H", *device["id"])))
    lines.append("EVIOCGVERSION 0 " + hexs(struct.pack("<i", 0x010001)))
    lines.append("EVIOCGPROP(0) 8 " + hexs(bytes(8)))
    for event_type, size in ((1, 96), (2, 8), (3, 8), (4, 8), (5, 8), (17, 8), (18, 8), (21, 16)):
        if event_type == EV_KEY:
            payload = bits(device["keys"], size)
        elif event_type == EV_ABS:
            payload = bits(device["abs"], size)
        else:
            payload = bytes(size)
        lines.append("EVIOCGBIT(%d) %d %s" % (event_type, size, hexs(payload)))
    lines.append("EVIOCGKEY(0) 96 " + hexs(bytes(96)))
    lines.append("EVIOCGLED(0) 8 " + hexs(bytes(8)))
    lines.append("EVIOCGSW(0) 8 " + hexs(bytes(8)))
    for axis in device["abs"]:
        lines.append(("EVIOCGABS(%d) 0 " % axis if axis else "EVIOCGABS 0 ") + hexs(absinfo(127, 0, 255)))
    return "\n".join(lines) + "\n"


def events(device):
    """One press and release of the device's `press` key at its kernel time (microseconds never start with 0)."""
    seconds, key = device["press"]
    lines = ["# EVEMU 1.3", "# device /dev/input/event%d (%s): key 0x%x at %.1f s." % (
        device["node"], device["name"], key, seconds)]
    for time, value in ((seconds, 1), (seconds + 0.2, 0)):
        lines.append("E: %.6f %04x %04x %d" % (time, EV_KEY, key, value))
        lines.append("E: %.6f 0000 0000 0" % time)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open("buzzers.umockdev", "w") as file:
        file.write(description(DEVICES))
    with open("buzzers-shared-identity.umockdev", "w") as file:
        file.write(description(SHARED_IDENTITY_DEVICES))
    for device in DEVICES + SHARED_IDENTITY_DEVICES:
        with open("buzzer-event%d.ioctl" % device["node"], "w") as file:
            file.write(ioctls(device))
    for device in SHARED_IDENTITY_DEVICES:
        with open("buzzer-event%d.events" % device["node"], "w") as file:
            file.write(events(device))
