#ifndef MAPC_CLIBXML2_SHIM_H
#define MAPC_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>

#endif
