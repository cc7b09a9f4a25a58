/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final xor.
 * Check value: crc16("123456789") == 0x29B1 (PROTOCOL.md, firmware_bridge/crc.py). */
#ifndef BG_CRC16_H
#define BG_CRC16_H
#include <stdint.h>
#include <stddef.h>

#define CRC16_INIT 0xFFFFu

/* Continue a running CRC with one byte. */
uint16_t crc16_update(uint16_t crc, uint8_t byte);
/* The CRC of n bytes, starting from CRC16_INIT. */
uint16_t crc16(const uint8_t *data, size_t n);

#endif
