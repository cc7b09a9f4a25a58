/* CRC-32/ISO-HDLC (the zlib/Ethernet CRC): poly 0x04C11DB7 reflected (0xEDB88320), init and final
 * xor 0xFFFFFFFF.  Check value: crc32("123456789") == 0xCBF43926 (PROTOCOL.md section 2,
 * firmware_bridge/crc.py). */
#ifndef BG_CRC32_H
#define BG_CRC32_H
#include <stdint.h>
#include <stddef.h>

#define CRC32_INIT 0xFFFFFFFFUL

/* Continue a running (not yet inverted) CRC with one byte. */
uint32_t crc32_update(uint32_t crc, uint8_t byte);
/* The CRC of n bytes: started from CRC32_INIT, inverted at the end. */
uint32_t crc32(const uint8_t *data, size_t n);

#endif
