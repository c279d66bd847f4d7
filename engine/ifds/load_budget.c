/* How much memory the loader may still take, for the checks of header counts
 * before any table is allocated: the least of the memory available on the
 * machine (MemAvailable), the address-space limit (RLIMIT_AS) and the data
 * limit (RLIMIT_DATA), each minus what the process already uses. A header
 * whose counts imply more is refused with the figures instead of being
 * allocated, filled, and killed by the OOM killer or an abort. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "engine/ifds/builder.h"

/* MemAvailable from /proc/meminfo (bytes); else free physical pages; 0 if unknown. */
static uint64_t memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[128];
    unsigned long long kib = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
      found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(f);
    if (found) return (uint64_t)kib * 1024u;
  }
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* Virtual size and data size of this process now (bytes), from /proc/self/statm. */
static void process_usage(uint64_t *virtual_bytes, uint64_t *data_bytes) {
  *virtual_bytes = *data_bytes = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return;
  unsigned long long size = 0, resident = 0, shared = 0, text = 0, lib = 0, data = 0;
  long page = sysconf(_SC_PAGESIZE);
  if (fscanf(f, "%llu %llu %llu %llu %llu %llu", &size, &resident, &shared, &text, &lib, &data) ==
          6 &&
      page > 0) {
    *virtual_bytes = (uint64_t)size * (uint64_t)page;
    *data_bytes = (uint64_t)data * (uint64_t)page;
  }
  fclose(f);
}

/* Lowers *budget to what `resource` still allows, naming it in *source. */
static void apply_limit(int resource, uint64_t used, const char *name, uint64_t *budget,
                        const char **source) {
  struct rlimit rl;
  if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
  uint64_t left = (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
  if (left < *budget) {
    *budget = left;
    *source = name;
  }
}

uint64_t ifds_memory_budget(const char **source) {
  uint64_t budget = memory_available();
  *source = "the memory available on this machine (MemAvailable)";
  if (budget == 0) budget = UINT64_MAX, *source = "no known limit";
  uint64_t virtual_bytes, data_bytes;
  process_usage(&virtual_bytes, &data_bytes);
  apply_limit(RLIMIT_AS, virtual_bytes, "the address-space limit left (ulimit -v)", &budget,
              source);
  apply_limit(RLIMIT_DATA, data_bytes, "the data-size limit left (ulimit -d)", &budget, source);
  return budget;
}
