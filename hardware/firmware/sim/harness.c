/* simavr harness: runs the real dice_reader.elf on a simulated ATmega328P at 16 MHz, paced to
 * wall-clock time, with
 *   - UART0 bridged to a pseudo-terminal (printed as "PTY <path>" on stdout), fed at the
 *     line rate of 115200 baud;
 *   - the CD74HC4067 multiplexer and the sensor array modelled: at each ADC conversion the
 *     harness reads the address pins PD4..PD7 and the IR LED pin PB1 and puts the selected
 *     phototransistor's voltage on ADC0 (sim/scene.c);
 *   - EEPROM persisted in a file (--eeprom) so the boot counter survives restarts;
 *   - scene commands on stdin (see hardware/design/simulation.md), each answered "ok <ms>".
 * Usage: harness FIRMWARE.elf [--eeprom FILE] [--seed N] [--speed F] [--link PATH] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avr_adc.h"
#include "avr_eeprom.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"

#include "scene.h"
#include "simio.h"

#define F_CPU 16000000UL
#define BAUD 115200
#define PORTB_ADDR 0x25
#define PORTD_ADDR 0x2B
#define EEPROM_SIZE 1024

static avr_t *avr;
static avr_irq_t *adc0_irq, *uart_in_irq;
static volatile sig_atomic_t stop;
static uint8_t uart_xon = 1;
static simio_opts_t opts;

static uint64_t sim_us(void) { return avr->cycle / (F_CPU / 1000000UL); }

/* for the "stats" command: conversions so far, and how long the last full scan took */
static uint64_t adc_count, scan_start_us, last_scan_us, scans;

static void on_adc_trigger(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)value; (void)param;
    uint8_t channel = avr->data[PORTD_ADDR] >> 4;
    uint8_t led = (avr->data[PORTB_ADDR] >> 1) & 1;
    adc_count++;
    if (channel == 0 && !led)
        scan_start_us = sim_us();
    else if (channel == 15 && led && scan_start_us) {
        last_scan_us = sim_us() - scan_start_us;
        scans++;
    }
    uint16_t counts = scene_read(channel, led, sim_us());
    avr_raise_irq(adc0_irq, (uint32_t)counts * 5000u / 1023u);
}

static void on_uart_out(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    simio_tx((uint8_t)value);
}

static void on_xon(struct avr_irq_t *irq, uint32_t value, void *param) { (void)irq; (void)value; (void)param; uart_xon = 1; }
static void on_xoff(struct avr_irq_t *irq, uint32_t value, void *param) { (void)irq; (void)value; (void)param; uart_xon = 0; }

static void eeprom_io(int save)
{
    if (!opts.eeprom)
        return;
    static uint8_t image[EEPROM_SIZE];
    avr_eeprom_desc_t d = {.ee = image, .offset = 0, .size = EEPROM_SIZE};
    if (save) {
        /* simavr 1.6 copies into d.ee but does not return 0 for GET: check the copy instead */
        memset(image, 0xA5, sizeof image);
        avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &d);
        FILE *f = fopen(opts.eeprom, "wb");
        if (!f || fwrite(d.ee, 1, EEPROM_SIZE, f) != EEPROM_SIZE)
            fprintf(stderr, "cannot write the EEPROM image %s\n", opts.eeprom);
        if (f)
            fclose(f);
    } else {
        FILE *f = fopen(opts.eeprom, "rb");
        if (f) {
            if (fread(image, 1, EEPROM_SIZE, f) == EEPROM_SIZE)
                avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &d);
            fclose(f);
        }
    }
}

static void command_one(const char *line);

/* "a; b; c" applies several commands at the same simulated instant, answered once */
static void command(const char *line)
{
    if (!strchr(line, ';')) {
        command_one(line);
        return;
    }
    char buf[1024], reply[256];
    snprintf(buf, sizeof buf, "%s", line);
    unsigned long ms = (unsigned long)(sim_us() / 1000);
    for (char *part = strtok(buf, ";"); part; part = strtok(NULL, ";")) {
        while (*part == ' ')
            part++;
        if (scene_command(part, sim_us(), reply, sizeof reply) != 0) {
            simio_reply("%s", reply);
            return;
        }
    }
    simio_reply("ok %lu", ms);
}

static void command_one(const char *line)
{
    char reply[256];
    unsigned long ms = (unsigned long)(sim_us() / 1000);
    if (!strcmp(line, "time")) {
        simio_reply("ok %lu", ms);
    } else if (!strcmp(line, "stats")) {
        simio_reply("ok %lu adc=%llu scans=%llu scan_us=%llu", ms, (unsigned long long)adc_count,
                    (unsigned long long)scans, (unsigned long long)last_scan_us);
    } else if (!strcmp(line, "reset")) {
        eeprom_io(1);
        avr_reset(avr);
        simio_reply("ok %lu", ms);
    } else if (!strcmp(line, "save")) {
        eeprom_io(1);
        simio_reply("ok %lu", ms);
    } else if (scene_command(line, sim_us(), reply, sizeof reply) == 0) {
        simio_reply("%s %lu", reply, ms);
    } else {
        simio_reply("%s", reply);
    }
}

static void on_signal(int sig) { (void)sig; stop = 1; }

/* simavr's default sleep callback sleeps the host for the AVR's sleep time; this harness paces
 * the whole simulation itself (--speed), so a sleeping AVR costs nothing here */
static void no_host_sleep(avr_t *a, avr_cycle_count_t how_long) { (void)a; (void)how_long; }

/* simavr's messages go to stderr: stdout carries only the PTY line and command replies */
static void log_stderr(struct avr_t *a, const int level, const char *format, va_list ap)
{
    (void)a;
    if (level <= LOG_WARNING)
        vfprintf(stderr, format, ap);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--eeprom FILE] [--seed N] [--speed F] [--link PATH]\n", argv[0]);
        return 2;
    }
    if (simio_parse(argc, argv, 2, &opts) < 0)
        return 2;
    avr_global_logger_set(log_stderr);
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) {
        fprintf(stderr, "cannot read firmware %s\n", argv[1]);
        return 1;
    }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = F_CPU;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr) {
        fprintf(stderr, "simavr has no atmega328p core\n");
        return 1;
    }
    avr_init(avr);
    avr->log = LOG_ERROR;
    avr_load_firmware(avr, &fw);
    avr->frequency = F_CPU;
    avr->vcc = avr->avcc = avr->aref = 5000;
    avr->sleep = no_host_sleep;
    scene_init(opts.seed);
    eeprom_io(0);

    adc0_irq = avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_OUT_TRIGGER), on_adc_trigger, NULL);
    uart_in_irq = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_xoff, NULL);
    /* no stdio echo of the UART, no sleeping in simavr's uart */
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (simio_open(opts.link) < 0)
        return 1;

    const uint64_t byte_cycles = F_CPU * 10 / BAUD; /* 8N1: 10 bits per byte */
    const uint64_t slice = F_CPU / 1000;            /* I/O and pacing every simulated ms */
    uint64_t next_io = 0, next_rx = 0;
    uint64_t wall0 = simio_wall_us();
    int rc = 0;
    while (!stop) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "simulated CPU stopped (state %d) at %lu ms\n", state, (unsigned long)(sim_us() / 1000));
            rc = 1;
            break;
        }
        if (avr->cycle >= next_rx && uart_xon) {
            int b = simio_rx();
            if (b >= 0) {
                avr_raise_irq(uart_in_irq, (uint32_t)b);
                next_rx = avr->cycle + byte_cycles;
            }
        }
        if (avr->cycle >= next_io) {
            next_io = avr->cycle + slice;
            /* pace: simulated time runs at `speed` times wall-clock time */
            int64_t ahead = (int64_t)((double)sim_us() / opts.speed) - (int64_t)(simio_wall_us() - wall0);
            if (simio_poll(ahead > 200 ? (int)ahead : 0, command) < 0)
                break;
        }
    }
    eeprom_io(1);
    simio_close();
    return rc;
}
