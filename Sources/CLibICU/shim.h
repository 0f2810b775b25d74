#include <unicode/ubrk.h>
#include <unicode/ubidi.h>
