/* The tiny hardware abstraction the firmware logic runs on.  main_avr.c implements it on the
 * ATmega328P; host/hal_host.c implements it on Linux for the host build and the tests. */
#ifndef BG_HAL_H
#define BG_HAL_H
#include <stdint.h>

void hal_init(void);
uint32_t hal_millis(void);             /* ms since boot, wrapping */
void hal_mux_select(uint8_t channel);  /* analogue multiplexer address 0..15 */
void hal_ir_leds(uint8_t on);          /* the IR LED bank under the window */
uint16_t hal_adc_read(void);           /* one conversion of the multiplexer output, 0..1023 */
void hal_delay_us(uint16_t us);
int16_t hal_uart_get(void);            /* next received byte, or -1 */
uint8_t hal_uart_put(const uint8_t *data, uint8_t n); /* queue bytes; returns how many fit */
uint8_t hal_uart_room(void);           /* bytes free in the transmit queue */
void hal_status_led(uint8_t on);       /* the board LED (D13) */
void hal_panel_leds(uint8_t bits);     /* the indicator LEDs (BG_LED_* bits) */
uint32_t hal_boot_entropy(void);       /* noise gathered at power-up (ADC LSBs, SRAM contents) */
uint32_t hal_eeprom_read32(uint8_t slot);             /* persistent words: 0 boot counter, 1 salt */
void hal_eeprom_write32(uint8_t slot, uint32_t value);
uint8_t hal_reset_was_fault(void);     /* last reset was by the watchdog or a brown-out */
void hal_watchdog_kick(void);
void hal_idle(void);                   /* sleep until the next interrupt (or return at once) */

#endif
