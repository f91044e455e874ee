#include "KVOLiteLockPrimitive.h"

#if !defined(__APPLE__) && !defined(__linux__)
#error "KVOLite supports Linux and Apple's platforms only: this platform has no lock here"
#endif

__attribute__((aligned(64))) kvolite_padded_lock_t
    kvolite_property_locks[KVOLITE_PROPERTY_LOCK_COUNT];

// Initial-exec: an offset from the thread pointer, with no call to find it (the default model
// for code that may go into a shared library calls __tls_get_addr on every access).
__attribute__((tls_model("initial-exec"))) _Thread_local kvolite_thread_record_t
    kvolite_thread_record_storage;

#if defined(__APPLE__)
#include <os/lock.h>

_Static_assert(sizeof(os_unfair_lock) == sizeof(kvolite_lock_t), "os_unfair_lock is one word");

void kvolite_lock_acquire(kvolite_lock_t *lock) { os_unfair_lock_lock((os_unfair_lock *)lock); }

void kvolite_lock_release(kvolite_lock_t *lock) { os_unfair_lock_unlock((os_unfair_lock *)lock); }

#elif defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

// The state: 0 unlocked, 1 locked, 2 locked and perhaps waited for.

void kvolite_lock_acquire(kvolite_lock_t *lock) {
  uint32_t state = 0;
  if (__atomic_compare_exchange_n(&lock->state, &state, 1, 0, __ATOMIC_ACQUIRE,
                                  __ATOMIC_RELAXED)) {
    return;
  }
  if (state != 2) {
    state = __atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE);
  }
  while (state != 0) {
    syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 2, 0, 0, 0);
    state = __atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE);
  }
}

void kvolite_lock_release(kvolite_lock_t *lock) {
  if (__atomic_exchange_n(&lock->state, 0, __ATOMIC_RELEASE) == 2) {
    syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
  }
}

#endif
