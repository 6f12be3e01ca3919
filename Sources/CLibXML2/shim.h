#ifndef MAPC_CLIBXML2_SHIM_H
#define MAPC_CLIBXML2_SHIM_H

/* libxml2 built with ICU includes the system's <unicode/ucnv.h>, whose enums clash with
   Foundation's bundled ICU in any Swift file that sees both. mapc never touches libxml2's
   encoding handlers (it reads UTF-8 only), so hide the ICU part of the headers. This only
   changes the layout of xmlCharEncodingHandler, which mapc uses through pointers only. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>

/* mapc: libxml2's "generic" error channel is a variadic C function, which Swift cannot define.
   These two helpers let Swift route it to a function that prints nothing. In a threaded libxml2
   build the generic channel is per thread, so the reader calls mapc_xml_silence_thread() on the
   thread that parses, before parsing. */
static inline void mapc_xml_discard_generic(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}

static inline void mapc_xml_silence_thread(void) {
  xmlSetGenericErrorFunc(NULL, mapc_xml_discard_generic);
}

#endif
