#include <zlib.h>

// deflateInit2 is a macro (it passes ZLIB_VERSION and the stream's size), which Swift cannot
// import: a raw DEFLATE stream (negative window bits, no zlib header), as Core Data's
// Z_MODELCACHE holds.
static inline int czlib_deflate_init_raw(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

// inflateInit2 likewise: reads the raw DEFLATE stream of Z_MODELCACHE back.
static inline int czlib_inflate_init_raw(z_stream *stream) {
  return inflateInit2(stream, -15);
}
