#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

// The size of igzip's level 3 hash buffer (its default), which Swift cannot
// read from the macro.
static inline uint32_t strata_isal_level3_buffer_size(void) { return ISAL_DEF_LVL3_DEFAULT; }
