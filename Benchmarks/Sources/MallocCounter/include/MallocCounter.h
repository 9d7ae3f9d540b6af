#pragma once
/// The number of malloc/calloc/realloc/posix_memalign/aligned_alloc calls so far in this process.
long malloc_counter_count(void);
