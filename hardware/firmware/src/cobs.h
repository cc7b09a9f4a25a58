/* Consistent Overhead Byte Stuffing: frames contain no 0x00, so 0x00 delimits them. */
#ifndef BG_COBS_H
#define BG_COBS_H
#include <stdint.h>
#include <stddef.h>

/* Encode n bytes of src into dst (room for n + n/254 + 1 bytes); returns the encoded length.
 * The 0x00 delimiter is not written. */
size_t cobs_encode(const uint8_t *src, size_t n, uint8_t *dst);
/* Decode one block (without its delimiter) into dst (room for n bytes); returns the decoded
 * length, or -1 when the block is not valid COBS (a zero byte or a code past the end). */
int cobs_decode(const uint8_t *src, size_t n, uint8_t *dst);

#endif
