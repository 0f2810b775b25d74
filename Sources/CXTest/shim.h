// XTest: synthetic pointer, wheel and key input, for the window tests and
// `strata-bench window` (Debian's libxtst-dev). Apps do not need it.
#ifndef STRATA_CXTEST_SHIM_H
#define STRATA_CXTEST_SHIM_H
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#endif
