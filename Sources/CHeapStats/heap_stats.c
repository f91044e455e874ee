#include "CHeapStats.h"

#if defined(__linux__)
#include <malloc.h>

size_t cheapstats_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks;
}
#else
size_t cheapstats_bytes_in_use(void) { return 0; }
#endif
