/* The simulator's outside world, shared by the simavr harness and the host build: a
 * pseudo-terminal standing in for the USB serial port, and text commands on stdin. */
#ifndef BG_SIMIO_H
#define BG_SIMIO_H
#include <stdint.h>
#include <stddef.h>

/* Open the pty (raw), optionally symlink it to `link_path`, print "PTY <path>" on stdout. */
int simio_open(const char *link_path);
void simio_close(void);
/* Bytes the device sent: queued for the pty. */
void simio_tx(uint8_t byte);
/* Poll the pty and stdin without blocking (or up to timeout_us): received serial bytes go to
 * the input queue; each complete stdin line is passed to `command`. Returns -1 on stdin EOF
 * or "quit". */
typedef void (*simio_command_fn)(const char *line);
int simio_poll(int timeout_us, simio_command_fn command);
/* Next received serial byte, or -1. */
int simio_rx(void);
/* Print a reply line on stdout. */
void simio_reply(const char *fmt, ...);
/* Parse the common options: --eeprom FILE --seed N --speed F --link PATH. */
typedef struct {
    const char *eeprom;
    const char *link;
    uint64_t seed;
    double speed;
} simio_opts_t;
int simio_parse(int argc, char **argv, int first, simio_opts_t *o);
uint64_t simio_wall_us(void);

#endif
