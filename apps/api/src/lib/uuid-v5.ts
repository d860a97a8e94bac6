import { createHash } from 'node:crypto';

/** RFC 9562 §5.5: a name-based UUID (SHA-1), the same for the same namespace and name. */
export function uuidV5(name: string, namespace: string): string {
  const namespaceBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (namespaceBytes.length !== 16) throw new Error(`Not a UUID: ${namespace}`);
  const bytes = createHash('sha1')
    .update(namespaceBytes)
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes.writeUInt8(((bytes[6] ?? 0) & 0x0f) | 0x50, 6);
  bytes.writeUInt8(((bytes[8] ?? 0) & 0x3f) | 0x80, 8);
  const hex = bytes.toString('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32),
  ].join('-');
}
