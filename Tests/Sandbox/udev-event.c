/*
 * shaky-udev-event: sends one device event the way systemd-udevd passes a processed event on to libudev's
 * monitors, so that `make test-sandbox` can plug and unplug a device in a container that has no udevd and a
 * kernel with no device to plug. The message goes to the "udev" multicast group (2) of NETLINK_KOBJECT_UEVENT in
 * the sender's network namespace, in libudev's monitor format (systemd 252, sd-device/device-monitor.c):
 *
 *   "libudev\0", then eight 32-bit words: magic 0xfeedcafe (big endian), header size, properties offset and
 *   length (host order), and, big endian for the socket filter libudev attaches, the MurmurHash2 (seed 0) of
 *   SUBSYSTEM and of DEVTYPE and a 64-bit bloom of the TAGS; then the properties, each KEY=VALUE and a NUL.
 *
 * Receivers drop the message unless the sender is uid 0, and the kernel refuses to send to a multicast group
 * without CAP_NET_ADMIN: run it as root, in a network namespace of the test's own (every libudev monitor in the
 * namespace hears the event).
 *
 * usage: shaky-udev-event KEY=VALUE...   (ACTION, DEVPATH, SUBSYSTEM and SEQNUM are required, as libudev needs)
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <arpa/inet.h>

enum { udev_group = 2, header_size = 40, max_properties = 8192 };

/* MurmurHash2 (Austin Appleby's 32-bit hash, public domain), 4-byte blocks read little endian like x86 does. */
static uint32_t murmur_hash2(const char *text) {
    const uint32_t m = 0x5bd1e995;
    size_t length = strlen(text);
    uint32_t hash = (uint32_t)length;
    const unsigned char *bytes = (const unsigned char *)text;
    for (; length >= 4; length -= 4, bytes += 4) {
        uint32_t block = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
                         (uint32_t)bytes[3] << 24;
        block *= m;
        block ^= block >> 24;
        block *= m;
        hash *= m;
        hash ^= block;
    }
    switch (length) {
    case 3: hash ^= (uint32_t)bytes[2] << 16; /* fall through */
    case 2: hash ^= (uint32_t)bytes[1] << 8; /* fall through */
    case 1:
        hash ^= bytes[0];
        hash *= m;
    }
    hash ^= hash >> 13;
    hash *= m;
    hash ^= hash >> 15;
    return hash;
}

/* Four bits of a tag's hash set in a 64-bit field: what libudev's tag filter tests. */
static uint64_t tag_bloom(const char *tag) {
    uint32_t hash = murmur_hash2(tag);
    return UINT64_C(1) << (hash & 63) | UINT64_C(1) << ((hash >> 6) & 63) | UINT64_C(1) << ((hash >> 12) & 63) |
           UINT64_C(1) << ((hash >> 18) & 63);
}

/* The value of KEY among the properties, or NULL. */
static const char *property(int count, char **properties, const char *key) {
    size_t length = strlen(key);
    for (int index = 0; index < count; index++)
        if (strncmp(properties[index], key, length) == 0 && properties[index][length] == '=')
            return properties[index] + length + 1;
    return NULL;
}

static void put_word(unsigned char *header, int word, uint32_t value) {
    memcpy(header + 8 + 4 * word, &value, sizeof value);
}

int main(int argc, char **argv) {
    int count = argc - 1;
    char **properties = argv + 1;
    static const char *required[] = {"ACTION", "DEVPATH", "SUBSYSTEM", "SEQNUM"};
    for (size_t index = 0; index < sizeof required / sizeof *required; index++)
        if (!property(count, properties, required[index])) {
            fprintf(stderr, "shaky-udev-event: %s=… is missing\nusage: shaky-udev-event KEY=VALUE...\n",
                    required[index]);
            return 2;
        }

    static char body[max_properties];
    size_t body_length = 0;
    for (int index = 0; index < count; index++) {
        if (!strchr(properties[index], '=')) {
            fprintf(stderr, "shaky-udev-event: not KEY=VALUE: %s\n", properties[index]);
            return 2;
        }
        size_t length = strlen(properties[index]) + 1;
        if (body_length + length > sizeof body) {
            fprintf(stderr, "shaky-udev-event: the properties exceed %d bytes\n", max_properties);
            return 2;
        }
        memcpy(body + body_length, properties[index], length);
        body_length += length;
    }

    uint64_t bloom = 0;
    const char *tags = property(count, properties, "TAGS");
    if (tags) {
        char *list = strdup(tags), *saved = NULL;
        for (char *tag = strtok_r(list, ":", &saved); tag; tag = strtok_r(NULL, ":", &saved)) bloom |= tag_bloom(tag);
        free(list);
    }
    const char *devtype = property(count, properties, "DEVTYPE");

    unsigned char header[header_size] = "libudev";
    put_word(header, 0, htonl(0xfeedcafe));
    put_word(header, 1, header_size);
    put_word(header, 2, header_size);
    put_word(header, 3, (uint32_t)body_length);
    put_word(header, 4, htonl(murmur_hash2(property(count, properties, "SUBSYSTEM"))));
    put_word(header, 5, devtype ? htonl(murmur_hash2(devtype)) : 0);
    put_word(header, 6, htonl((uint32_t)(bloom >> 32)));
    put_word(header, 7, htonl((uint32_t)bloom));

    int sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (sock < 0) {
        perror("shaky-udev-event: socket(AF_NETLINK, NETLINK_KOBJECT_UEVENT)");
        return 1;
    }
    struct sockaddr_nl group = {.nl_family = AF_NETLINK, .nl_groups = udev_group};
    struct iovec parts[2] = {{.iov_base = header, .iov_len = sizeof header}, {.iov_base = body, .iov_len = body_length}};
    struct msghdr message = {.msg_name = &group, .msg_namelen = sizeof group, .msg_iov = parts, .msg_iovlen = 2};
    /* ECONNREFUSED only says that no one but the multicast group took the message, as udevd expects too. */
    if (sendmsg(sock, &message, 0) < 0 && errno != ECONNREFUSED) {
        perror("shaky-udev-event: sendmsg to the udev group");
        close(sock);
        return 1;
    }
    close(sock);
    printf("sent %s %s (%zu bytes of properties)\n", property(count, properties, "ACTION"),
           property(count, properties, "DEVPATH"), body_length);
    return 0;
}
