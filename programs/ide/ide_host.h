/* Host (CPU backend) versions of the IDE engine's programs. */
#ifndef WEIR_PROGRAMS_IDE_HOST_H
#define WEIR_PROGRAMS_IDE_HOST_H

#include "weir/program.h"

#include "programs/ide/ide_layout.h"

void weir_host_ide_round(const weir_host_invocation *inv);
#define weir_host_ide_round_linear weir_host_ide_round
#define weir_host_ide_round_typestate weir_host_ide_round
void weir_host_ide_expand(const weir_host_invocation *inv);
void weir_host_ide_advance(const weir_host_invocation *inv);

#endif
