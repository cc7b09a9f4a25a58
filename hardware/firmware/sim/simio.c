/* pty + stdin plumbing for the simulators (see simio.h). */
#define _GNU_SOURCE
#include "simio.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int master = -1, slave = -1;
static char link_made[512];
static uint8_t txq[8192];
static size_t txn;
static uint8_t rxq[4096];
static size_t rx_head, rx_tail;
static char line[1024];
static size_t line_len;

uint64_t simio_wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int simio_open(const char *link_path)
{
    char name[256];
    struct termios t;
    if (openpty(&master, &slave, name, NULL, NULL) < 0) {
        perror("openpty");
        return -1;
    }
    tcgetattr(slave, &t);
    cfmakeraw(&t);
    cfsetispeed(&t, B115200);
    cfsetospeed(&t, B115200);
    tcsetattr(slave, TCSANOW, &t);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    /* keep `slave` open so the pty survives the host closing and reopening it */
    if (link_path && *link_path) {
        unlink(link_path);
        if (symlink(name, link_path) == 0)
            snprintf(link_made, sizeof link_made, "%s", link_path);
    }
    printf("PTY %s\n", link_made[0] ? link_made : name);
    fflush(stdout);
    return 0;
}

void simio_close(void)
{
    if (link_made[0])
        unlink(link_made);
    if (master >= 0)
        close(master);
    if (slave >= 0)
        close(slave);
}

void simio_tx(uint8_t byte)
{
    if (txn < sizeof txq)
        txq[txn++] = byte;
}

int simio_rx(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t b = rxq[rx_tail];
    rx_tail = (rx_tail + 1) % sizeof rxq;
    return b;
}

void simio_reply(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

int simio_poll(int timeout_us, simio_command_fn command)
{
    if (txn) {
        ssize_t w = write(master, txq, txn);
        if (w > 0) {
            memmove(txq, txq + w, txn - (size_t)w);
            txn -= (size_t)w;
        }
    }
    struct pollfd p[2] = {{master, POLLIN, 0}, {0, POLLIN, 0}};
    int r = poll(p, 2, timeout_us > 0 ? (timeout_us + 999) / 1000 : 0);
    if (r <= 0)
        return 0;
    if (p[0].revents & POLLIN) {
        uint8_t buf[256];
        ssize_t n = read(master, buf, sizeof buf);
        for (ssize_t i = 0; i < n; i++) {
            size_t next = (rx_head + 1) % sizeof rxq;
            if (next != rx_tail) {
                rxq[rx_head] = buf[i];
                rx_head = next;
            }
        }
    }
    if (p[1].revents & (POLLIN | POLLHUP)) {
        char buf[512];
        ssize_t n = read(0, buf, sizeof buf);
        if (n <= 0)
            return -1;
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                line[line_len] = 0;
                line_len = 0;
                if (!strcmp(line, "quit"))
                    return -1;
                command(line);
            } else if (line_len < sizeof line - 1) {
                line[line_len++] = buf[i];
            }
        }
    }
    return 0;
}

int simio_parse(int argc, char **argv, int first, simio_opts_t *o)
{
    o->eeprom = NULL;
    o->link = NULL;
    o->speed = 1.0;
    o->seed = simio_wall_us() ^ ((uint64_t)getpid() << 32);
    for (int i = first; i < argc; i++) {
        if (!strcmp(argv[i], "--eeprom") && i + 1 < argc) o->eeprom = argv[++i];
        else if (!strcmp(argv[i], "--link") && i + 1 < argc) o->link = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) o->seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--speed") && i + 1 < argc) o->speed = atof(argv[++i]);
        else {
            fprintf(stderr, "unknown option %s (expected --eeprom FILE, --link PATH, --seed N, --speed F)\n", argv[i]);
            return -1;
        }
    }
    if (o->speed <= 0) {
        fprintf(stderr, "--speed must be positive, got %g\n", o->speed);
        return -1;
    }
    return 0;
}
