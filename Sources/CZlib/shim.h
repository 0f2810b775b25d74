// zlib (Debian's zlib1g-dev): the zlib-wrapped DEFLATE of PDF's FlateDecode
// streams.
#include <zlib.h>
