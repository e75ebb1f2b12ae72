#pragma once
// glibc's posix_spawn, with what Swift's Glibc module leaves out because it needs _GNU_SOURCE: file actions that set
// the child's working folder and close every descriptor from a number on (glibc 2.29 and 2.34), and pipe2, which
// makes a pipe close-on-exec from the start. Part of libc, so nothing to link.
#include <spawn.h>

int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions, const char *__restrict path);
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int pipe2(int descriptors[2], int flags);
