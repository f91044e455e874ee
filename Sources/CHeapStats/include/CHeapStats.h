#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back (glibc's mallinfo2().uordblks),
/// or 0 where the allocator cannot tell. Used by kvolite-benchmarks to measure heap bytes per
/// observation.
size_t cheapstats_bytes_in_use(void);

#endif
