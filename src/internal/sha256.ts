import { hash } from 'node:crypto';

/**
 * The SHA-256 of a text's UTF-8 bytes (or of bytes) as lowercase hex, in one call (no Hash object per call:
 * cache keys and fence tags are hashed once per judge grade).
 *
 * @example
 * ```ts
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}
