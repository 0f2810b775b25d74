#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "CWaylandProtocols.h"

int strata_wl_shm_file(size_t size) {
    int fd = memfd_create("strata-wl-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    int r;
    do { r = ftruncate(fd, (off_t)size); } while (r < 0 && errno == EINTR);
    if (r < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    return fd;
}
