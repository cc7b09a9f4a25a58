/* CRC-32/ISO-HDLC, bitwise (no 1 KB table: flash and RAM matter more than speed here; a 55-byte
 * frame costs about 0.3 ms at 16 MHz, well inside one 10 ms scan). */
#include "crc32.h"

uint32_t crc32_update(uint32_t crc, uint8_t byte)
{
    crc ^= byte;
    for (uint8_t i = 0; i < 8; i++)
        crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320UL : crc >> 1;
    return crc;
}

uint32_t crc32(const uint8_t *data, size_t n)
{
    uint32_t crc = CRC32_INIT;
    while (n--)
        crc = crc32_update(crc, *data++);
    return ~crc;
}
