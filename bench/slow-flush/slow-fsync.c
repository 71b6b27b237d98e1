/* A disk whose flush is slow (a laptop's drive under F_FULLFSYNC, a USB stick): fsync and
 * fdatasync wait SLOW_FSYNC_US microseconds (default 5000) and then do the real flush. Loaded
 * with LD_PRELOAD into `sanad serve` by `npm run bench -- slow-flush` (bench/slow-flush.ts); it
 * changes how long a flush takes, nothing else. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static useconds_t delay_us(void) {
  const char *v = getenv("SLOW_FSYNC_US");
  return v ? (useconds_t)atoi(v) : 5000;
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  usleep(delay_us());
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  usleep(delay_us());
  return real(fd);
}
