// HarfBuzz's subsetter (libharfbuzz-subset, in Debian's libharfbuzz-dev):
// the fonts documents embed carry only the glyphs they draw.
#include <hb-subset.h>
