#pragma once
// glibc's malloc tuning (mallopt, malloc_trim); part of libc, so nothing to link.
#include <malloc.h>
