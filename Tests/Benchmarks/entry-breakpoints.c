// The functions a process runs, each recorded at its first entry: an LD_PRELOAD library for symbol-order.py.
//
// Before the executable's own initialisers run, it writes a breakpoint (int3) over the first byte of every function
// listed in SHAKY_ENTRY_ADDRESSES (link-time addresses, one hexadecimal number a line, ascending). The first time a
// function is entered the SIGTRAP handler puts the byte back, appends the function's link-time address to
// SHAKY_ENTRY_OUTPUT (8 bytes, native order) and resumes at the function's start, which then runs as compiled; a
// function costs one trap in the whole run. Unlike a profile under valgrind, the process runs at full speed with
// its real timing, and unlike the kernel's page faults (one per 64 KiB with fault-around) every function is seen.
//
// The library acts only in the executable named by SHAKY_ENTRY_EXECUTABLE (the preload is inherited by anything
// the process starts). The executable's code stays writable for the rest of the run: profiling only.
//
//     cc -shared -fPIC -O2 -o entry-breakpoints.so entry-breakpoints.c
//     SHAKY_ENTRY_EXECUTABLE=/path/shakyd SHAKY_ENTRY_ADDRESSES=addresses SHAKY_ENTRY_OUTPUT=entries
//         LD_PRELOAD=./entry-breakpoints.so /path/shakyd serve ...
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static uintptr_t *addresses;  // link-time addresses, ascending
static unsigned char *original;  // the byte each breakpoint replaced
static unsigned char *entered;  // 0 armed, 1 being put back, 2 back
static size_t count;
static uintptr_t load_bias;
static int output = -1;

static int main_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    load_bias = info->dlpi_addr;  // the first object listed is the executable
    return 1;
}

static long find(uintptr_t address) {
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (addresses[middle] < address) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low < count && addresses[low] == address ? (long)low : -1;
}

static void on_trap(int signal, siginfo_t *info, void *context) {
    (void)info;
    ucontext_t *state = context;
    uintptr_t instruction = (uintptr_t)state->uc_mcontext.gregs[REG_RIP] - 1;
    long index = find(instruction - load_bias);
    if (index < 0) {  // not one of ours: let the trap do what it would have done
        struct sigaction fallback = {.sa_handler = SIG_DFL};
        sigaction(signal, &fallback, NULL);
        state->uc_mcontext.gregs[REG_RIP] = (greg_t)instruction;
        return;
    }
    unsigned char armed = 0;
    if (__atomic_compare_exchange_n(&entered[index], &armed, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        __atomic_store_n((unsigned char *)instruction, original[index], __ATOMIC_RELEASE);
        __atomic_store_n(&entered[index], 2, __ATOMIC_RELEASE);
        uint64_t link_address = addresses[index];
        ssize_t written = write(output, &link_address, sizeof link_address);
        (void)written;
    }
    // Another thread may have trapped here too: it waits until the byte is back, then runs the function.
    while (__atomic_load_n(&entered[index], __ATOMIC_ACQUIRE) != 2) {
    }
    state->uc_mcontext.gregs[REG_RIP] = (greg_t)instruction;
}

static int read_addresses(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) {
        return -1;
    }
    size_t capacity = 1 << 16;
    addresses = malloc(capacity * sizeof *addresses);
    unsigned long long value;
    while (fscanf(file, "%llx", &value) == 1) {
        if (count == capacity) {
            capacity *= 2;
            addresses = realloc(addresses, capacity * sizeof *addresses);
        }
        addresses[count++] = (uintptr_t)value;
    }
    fclose(file);
    return 0;
}

__attribute__((constructor)) static void arm(void) {
    const char *executable = getenv("SHAKY_ENTRY_EXECUTABLE");
    const char *list = getenv("SHAKY_ENTRY_ADDRESSES");
    const char *path = getenv("SHAKY_ENTRY_OUTPUT");
    char self[PATH_MAX], wanted[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (!executable || !list || !path || length <= 0 || !realpath(executable, wanted)) {
        return;
    }
    self[length] = 0;
    if (strcmp(self, wanted) != 0) {
        return;
    }
    if (read_addresses(list) != 0 || count == 0) {
        fprintf(stderr, "entry-breakpoints: cannot read %s\n", list);
        return;
    }
    output = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (output < 0) {
        fprintf(stderr, "entry-breakpoints: cannot open %s\n", path);
        return;
    }
    dl_iterate_phdr(main_program, NULL);
    original = malloc(count);
    entered = calloc(count, 1);
    struct sigaction action = {.sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&action.sa_mask);
    sigaction(SIGTRAP, &action, NULL);
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t first = (load_bias + addresses[0]) & ~(uintptr_t)(page - 1);
    uintptr_t end = load_bias + addresses[count - 1] + 1;
    if (mprotect((void *)first, end - first, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
        perror("entry-breakpoints: mprotect");
        return;
    }
    for (size_t index = 0; index < count; index++) {
        unsigned char *byte = (unsigned char *)(load_bias + addresses[index]);
        original[index] = *byte;
        *byte = 0xcc;
    }
}
