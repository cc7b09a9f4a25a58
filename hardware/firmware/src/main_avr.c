/* The ATmega328P HAL (Arduino Nano/Uno class, 16 MHz) and main().
 *
 * Pin map (hardware/design/sensing.md):
 *   PD0/PD1  RXD/TXD        USB serial, 115200 8N1 (U2X, UBRR 16: +2.1 %)
 *   PD4..PD7 D4..D7         CD74HC4067 address S0..S3
 *   PC0      A0 (ADC0)      CD74HC4067 common output (10 k load to GND)
 *   PB1      D9             IR LED bank MOSFET gate (high = LEDs on)
 *   PB5      D13            board LED: status
 *   PC1..PC4 A1..A4         panel LEDs REROLL, READY, FAULT, LINK */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>
#include <util/delay.h>
#include "app.h"
#include "hal.h"

#define BAUD_UBRR 16 /* 16 MHz / (8 * (16 + 1)) = 117647 baud with U2X: +2.1 % */

static volatile uint32_t ms;
static volatile uint8_t rx_buf[64], rx_head, rx_tail;
static volatile uint8_t tx_buf[128], tx_head, tx_tail;
static uint8_t reset_flags __attribute__((section(".noinit"))); /* set in .init3, before .bss is cleared */
static uint8_t noinit_ram[16] __attribute__((section(".noinit")));

/* Stop a watchdog left running across a watchdog reset before main() (avr-libc FAQ). */
void early_wdt_off(void) __attribute__((naked, used, section(".init3")));
void early_wdt_off(void)
{
    reset_flags = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(TIMER0_COMPA_vect) { ms++; }

ISR(USART_RX_vect)
{
    uint8_t b = UDR0, next = (uint8_t)((rx_head + 1) & 63);
    if (next != rx_tail) {
        rx_buf[rx_head] = b;
        rx_head = next;
    }
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & 127);
}

void hal_init(void)
{
    DDRD |= 0xF0;                                   /* mux address */
    DDRB |= _BV(PB1) | _BV(PB5);                    /* IR LEDs, status LED */
    DDRC |= _BV(PC1) | _BV(PC2) | _BV(PC3) | _BV(PC4); /* panel LEDs */
    DIDR0 = _BV(ADC0D);                             /* analogue input: no digital buffer */
    TCCR0A = _BV(WGM01);                            /* CTC, /64, 250 counts: 1 kHz */
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    UBRR0 = BAUD_UBRR;
    UCSR0A = _BV(U2X0);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);             /* 8N1 */
    ADMUX = _BV(REFS0);                             /* AVcc reference, ADC0 */
    ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0); /* 125 kHz ADC clock */
    sei();
}

uint32_t hal_millis(void)
{
    uint32_t v;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { v = ms; }
    return v;
}

void hal_mux_select(uint8_t channel) { PORTD = (uint8_t)((PORTD & 0x0F) | (uint8_t)(channel << 4)); }

void hal_ir_leds(uint8_t on)
{
    if (on)
        PORTB |= _BV(PB1);
    else
        PORTB &= (uint8_t)~_BV(PB1);
}

EMPTY_INTERRUPT(ADC_vect);

/* One conversion (104 us at 125 kHz), the CPU idling until the ADC interrupt: less noise from
 * the core, and simavr skips the idle time instead of simulating a busy loop. */
uint16_t hal_adc_read(void)
{
    set_sleep_mode(SLEEP_MODE_IDLE);
    ADCSRA |= _BV(ADIE) | _BV(ADSC);
    for (;;) {
        cli();
        if (!(ADCSRA & _BV(ADSC)))
            break;
        sleep_enable();
        sei();
        sleep_cpu(); /* sei's one-instruction delay makes this race-free */
        sleep_disable();
    }
    sei();
    ADCSRA &= (uint8_t)~_BV(ADIE);
    return ADC;
}

void hal_delay_us(uint16_t us)
{
    while (us--)
        _delay_us(1);
}

int16_t hal_uart_get(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t b = rx_buf[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) & 63);
    return b;
}

uint8_t hal_uart_room(void) { return (uint8_t)(127 - ((tx_head - tx_tail) & 127)); }

uint8_t hal_uart_put(const uint8_t *data, uint8_t n)
{
    uint8_t done = 0;
    while (done < n && hal_uart_room()) {
        tx_buf[tx_head] = data[done++];
        tx_head = (uint8_t)((tx_head + 1) & 127);
    }
    UCSR0B |= _BV(UDRIE0);
    return done;
}

void hal_status_led(uint8_t on)
{
    if (on)
        PORTB |= _BV(PB5);
    else
        PORTB &= (uint8_t)~_BV(PB5);
}

void hal_panel_leds(uint8_t bits) { PORTC = (uint8_t)((PORTC & ~0x1E) | ((bits & 0x0F) << 1)); }

/* Noise at power-up: the uninitialised .noinit RAM and the LSBs of 64 ambient readings. */
uint32_t hal_boot_entropy(void)
{
    uint32_t h = 2166136261UL; /* FNV-1a */
    for (uint8_t i = 0; i < sizeof noinit_ram; i++)
        h = (h ^ noinit_ram[i]) * 16777619UL;
    for (uint8_t i = 0; i < 64; i++) {
        hal_mux_select(i & 15);
        _delay_us(50);
        h = (h ^ (uint8_t)hal_adc_read()) * 16777619UL;
        h = (h ^ TCNT0) * 16777619UL;
    }
    return h;
}

uint32_t hal_eeprom_read32(uint8_t slot) { return eeprom_read_dword((uint32_t *)(uintptr_t)(slot * 4u)); }
void hal_eeprom_write32(uint8_t slot, uint32_t v) { eeprom_update_dword((uint32_t *)(uintptr_t)(slot * 4u), v); }
uint8_t hal_reset_was_fault(void) { return (reset_flags & (_BV(WDRF) | _BV(BORF))) != 0; }
void hal_watchdog_kick(void) { wdt_reset(); }

void hal_idle(void)
{
    set_sleep_mode(SLEEP_MODE_IDLE);
    cli();
    if (rx_head == rx_tail) {
        sleep_enable();
        sei();
        sleep_cpu(); /* the 1 ms tick or a received byte wakes us */
        sleep_disable();
    }
    sei();
}

int main(void)
{
    hal_init();
    app_init();
    wdt_enable(WDTO_1S);
    for (;;)
        app_poll();
}
