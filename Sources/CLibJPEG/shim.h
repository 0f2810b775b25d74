#include <stdio.h>
#include <jpeglib.h>
