// Interposes the glibc allocation functions to count them. The benchmark executable defines these
// symbols, so calls from the Swift runtime and the standard library come here first.
#include <stddef.h>
#include "MallocCounter.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static long counter = 0;

void *malloc(size_t n) { __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED); return __libc_realloc(p, n); }
int posix_memalign(void **p, size_t a, size_t n) {
    __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
    *p = __libc_memalign(a, n);
    return *p ? 0 : 12;
}
void *aligned_alloc(size_t a, size_t n) { __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED); return __libc_memalign(a, n); }

long malloc_counter_count(void) { return __atomic_load_n(&counter, __ATOMIC_RELAXED); }
