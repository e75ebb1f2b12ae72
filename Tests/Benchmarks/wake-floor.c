// The least a process that wakes on a timer costs: bench-system.py runs it beside the two daemons.
//
// It sleeps in poll(2) on an eventfd that is never written, with the period given in milliseconds as its only
// argument, and does nothing when it wakes but sleep again, until SIGTERM ends it. Its CPU time over its wake-ups is
// what one wake-up costs the machine it runs on (the timer, the scheduler, the context switches, and on a virtual
// machine the hypervisor's part of each), with no work of its own: a floor under any reader that must wake as often.
//
//     cc -O2 -o wake-floor wake-floor.c && ./wake-floor 165
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>

int main(int argc, char **argv) {
    int period = argc == 2 ? atoi(argv[1]) : 0;
    if (period <= 0) {
        fprintf(stderr, "usage: wake-floor PERIOD_MS\n");
        return 2;
    }
    int never = eventfd(0, EFD_CLOEXEC);
    if (never < 0) {
        perror("eventfd");
        return 1;
    }
    struct pollfd waited = {.fd = never, .events = POLLIN};
    for (;;) {
        if (poll(&waited, 1, period) < 0) {
            perror("poll");
            return 1;
        }
    }
}
