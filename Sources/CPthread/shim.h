#pragma once
// glibc's thread names: Swift's Glibc module declares pthread_setname_np only under _GNU_SOURCE. Part of libc.
#include <pthread.h>

int pthread_setname_np(pthread_t thread, const char *name);
