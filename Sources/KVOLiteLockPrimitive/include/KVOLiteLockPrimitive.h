#ifndef KVOLITE_LOCK_PRIMITIVE_H
#define KVOLITE_LOCK_PRIMITIVE_H

#include <stdint.h>

/// KVOLite's one lock: a mutual-exclusion lock of one 32-bit word, all zero when unlocked
/// (so zeroed memory is an unlocked lock, and a lock needs no destruction).
///
/// On Linux (and Android) it is a futex mutex (Drepper's "Futexes Are Tricky", mutex 3): an
/// uncontended lock or unlock is one atomic exchange, a contended one sleeps in the kernel. On
/// Apple's platforms it is `os_unfair_lock`. Acquiring has acquire ordering, releasing release
/// ordering, so everything written before a release is seen after the next acquire.
///
/// The functions are compiled here, in C, and never inlined into Swift: to the Swift optimizer
/// a lock and an unlock are calls that may do anything, so it never moves a retain or release
/// of a value copied under the lock to the other side of the unlock (see the Internals
/// article). The thread sanitizer sees their atomic operations.
typedef struct {
  uint32_t state;
} kvolite_lock_t;

/// One lock on its own cache line, for the table of property locks.
typedef struct {
  kvolite_lock_t lock;
  char padding[60];
} kvolite_padded_lock_t;

/// Acquires `lock`, waiting while another thread holds it. Not recursive.
void kvolite_lock_acquire(kvolite_lock_t *lock);

/// Releases `lock`, which this thread holds.
void kvolite_lock_release(kvolite_lock_t *lock);

/// Whether `lock` is free now (an acquiring load of its word; for the schedules of tests).
static inline int kvolite_lock_is_free(const kvolite_lock_t *lock) {
  return __atomic_load_n(&lock->state, __ATOMIC_ACQUIRE) == 0;
}

/// The number of property locks: a power of two.
#define KVOLITE_PROPERTY_LOCK_COUNT 1024

/// The table of property locks, zeroed (unlocked) when the program starts.
extern kvolite_padded_lock_t kvolite_property_locks[KVOLITE_PROPERTY_LOCK_COUNT];

/// The table's address: a constant once inlined.
static inline kvolite_padded_lock_t *kvolite_property_lock_table(void) {
  return kvolite_property_locks;
}

/// How many held locks a thread's record lists (more are counted, not listed).
#define KVOLITE_HELD_LOCKS 8

/// How many in-place mutations a thread's record lists; a deeper one copies instead.
#define KVOLITE_IN_PLACE_MUTATIONS 8
/// A lock a thread holds, as debug builds list it: its address, its rank in the lock order, and
/// its name (`name_length` bytes at `name`, not terminated; a line of `0` means the name is the
/// lock's, otherwise the file where it was made).
typedef struct {
  const void *lock;
  intptr_t rank;
  const char *name;
  intptr_t name_length;
  intptr_t line;
} kvolite_held_lock_t;

/// What KVOLite keeps per thread (see `ThreadIdentity` in KVOLiteLocking): one thread-local
/// record, whose address identifies the thread while it lives.
typedef struct {
  /// How deep the thread is in deliveries (`DeliveryScope`).
  intptr_t delivery_depth;
  /// The storage probe the thread is running, if any (KVOLite's `StorageProbe`): the address of
  /// the probing thread's request, valid while the probe runs.
  void *probe;
  /// Debug builds only (`LockOrder`): how many locks the thread holds, and the first
  /// `KVOLITE_HELD_LOCKS` of them, outermost first.
  intptr_t held_count;
  kvolite_held_lock_t held[KVOLITE_HELD_LOCKS];
  /// Debug builds only: the schedule the thread runs under (the test support's
  /// `ThreadScheduler`), which each schedule point of `LockOrder` asks before going on; `NULL`
  /// for every thread that is not one of its callers.
  void *schedule;
  /// How many `@Observed` properties the thread is mutating in place (KVOLite's `Observed`'s
  /// `_modify`), and their storages, innermost last: an access to one of them from inside its
  /// own mutation, on this thread, stops the program instead of waiting for itself.
  intptr_t in_place_count;
  const void *in_place[KVOLITE_IN_PLACE_MUTATIONS];
} kvolite_thread_record_t;

/// The calling thread's record: initial-exec, an offset from the thread pointer.
extern __attribute__((tls_model("initial-exec"))) _Thread_local kvolite_thread_record_t
    kvolite_thread_record_storage;

/// The calling thread's record; its address identifies the thread while it lives.
static inline kvolite_thread_record_t *kvolite_thread_record(void) {
  return &kvolite_thread_record_storage;
}

/// The locks the calling thread's record lists (debug builds): `KVOLITE_HELD_LOCKS` entries.
static inline kvolite_held_lock_t *kvolite_held_locks(void) {
  return kvolite_thread_record_storage.held;
}

/// The calling thread's depth of deliveries: the first field of its record, so that its
/// address is the record's.
static inline intptr_t *kvolite_delivery_depth(void) {
  return &kvolite_thread_record_storage.delivery_depth;
}

/// The task the calling thread runs, or NULL: the Swift concurrency runtime's entry point that
/// compiled async code calls (part of its ABI on every platform). Swift's own
/// `withUnsafeCurrentTask` costs hundreds of instructions here, more than an in-place append.
extern void *swift_task_getCurrent(void);
/// Whether the calling thread runs a Swift concurrency task.
static inline int kvolite_in_task(void) {
  return swift_task_getCurrent() != 0;
}
/// Notes that the calling thread mutates the storage at `storage` in place; 0 (noting nothing)
/// if its record lists as many as it can.
static inline int kvolite_in_place_begin(const void *storage) {
  kvolite_thread_record_t *record = &kvolite_thread_record_storage;
  if (record->in_place_count >= KVOLITE_IN_PLACE_MUTATIONS) return 0;
  record->in_place[record->in_place_count++] = storage;
  return 1;
}
/// Ends the calling thread's innermost in-place mutation (nothing if it has none).
static inline void kvolite_in_place_end(void) {
  kvolite_thread_record_t *record = &kvolite_thread_record_storage;
  if (record->in_place_count > 0) record->in_place_count -= 1;
}
/// Whether the calling thread is inside an in-place mutation.
static inline int kvolite_in_place_any(void) {
  return kvolite_thread_record_storage.in_place_count > 0;
}
/// Whether the calling thread is mutating the storage at `storage` in place.
static inline int kvolite_in_place_contains(const void *storage) {
  kvolite_thread_record_t *record = &kvolite_thread_record_storage;
  for (intptr_t index = 0; index < record->in_place_count; index++) {
    if (record->in_place[index] == storage) return 1;
  }
  return 0;
}

#endif
