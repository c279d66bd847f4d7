/* `weir info`: every backend, available or not and why, and its devices. */
#include <stdio.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "weir/weir.h"

#define MAX_REPORTS 32
#define MAX_LISTED_DEVICES 16

static void print_device(const weir_device_info *d) {
  printf("    %-10s %s [%s]\n", d->spec, d->name, d->kind);
  printf("               memory: %.1f GiB, driver: %s, DLPack device (%d, %d)\n",
         (double)d->memory_bytes / (1024.0 * 1024.0 * 1024.0), d->driver, d->dl_device_type,
         d->dl_device_id);
  const char *line = d->details;
  while (*line) {
    const char *end = strchr(line, '\n');
    int len = end ? (int)(end - line) : (int)strlen(line);
    printf("               %.*s\n", len, line);
    if (!end) break;
    line = end + 1;
  }
}

int weir_cmd_info(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("usage: weir info\n\nLists every backend weir knows (compiled in, plugins on "
           "WEIR_BACKEND_PATH), whether it is available here and why not, and its devices.\n");
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "weir info: unexpected argument '%s'. Fix: run `weir info` alone.\n", argv[1]);
    return 2;
  }
  weir_backend_report reports[MAX_REPORTS];
  size_t count = 0;
  weir_status st = weir_backend_reports(reports, MAX_REPORTS, &count);
  if (st != WEIR_OK) return weir_cli_report("info", st);
  if (count > MAX_REPORTS) count = MAX_REPORTS;
  printf("weir %s\n", WEIR_VERSION_STRING);
  for (size_t i = 0; i < count; ++i) {
    const weir_backend_report *r = &reports[i];
    printf("\n%-8s %s", r->id, r->available ? "available" : "unavailable");
    if (r->available) printf(" (version %s, %u device%s)\n", r->version, r->device_count,
                             r->device_count == 1 ? "" : "s");
    else printf("\n    reason: %s\n", r->reason);
    if (!r->available) continue;
    uint32_t listed = r->device_count;
    if (strcmp(r->id, "cpu") == 0) listed = 1; /* cpu:N are identical stand-ins */
    if (listed > MAX_LISTED_DEVICES) listed = MAX_LISTED_DEVICES;
    for (uint32_t d = 0; d < listed; ++d) {
      weir_device_info info = WEIR_DEVICE_INFO_INIT;
      if (weir_backend_describe(r->id, d, &info) == WEIR_OK) print_device(&info);
      else printf("    device %u: %s\n", d, weir_last_error());
    }
    if (strcmp(r->id, "cpu") == 0)
      printf("    cpu:1 .. cpu:%u are further instances with separate memory\n",
             r->device_count - 1);
  }
  return 0;
}
