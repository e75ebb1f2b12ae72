#pragma once
// The Swift runtime's hook for where a task goes when it has no executor of its own (Swift's concurrency runtime,
// GlobalExecutor.cpp): when set, the runtime calls it with the job instead of handing the job to libdispatch.
//
// NIO installs its event loop there by looking the variable up with dlsym, which cannot find it in a binary that
// carries the Swift runtime inside it: the static runtime's link arguments hide every symbol of the static
// libraries (--exclude-libs ALL). Referring to the variable here resolves it at link time instead, static or not.
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

// Declared as what it holds, a function pointer, atomically: only its size and alignment matter to the link.
extern void *_Atomic swift_task_enqueueGlobal_hook;

/// The hook's type: the job, and the runtime's own enqueue (unused). The runtime calls it with Swift's calling
/// convention, which passes two pointer arguments in the same registers as C's on x86-64 and arm64.
typedef void (*shaky_enqueue_global)(void *job, void *original);

/// Sets the hook to `hook` unless something set it before; returns whether it did.
static inline bool shaky_install_enqueue_global(shaky_enqueue_global hook) {
    void *expected = NULL;
    return atomic_compare_exchange_strong(&swift_task_enqueueGlobal_hook, &expected, (void *)hook);
}
