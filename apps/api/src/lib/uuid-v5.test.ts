import { describe, expect, it } from 'vitest';
import { uuidV5 } from './uuid-v5';

const dnsNamespace = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV5', () => {
  it.each([
    // Published vectors (RFC 9562 Appendix A.4 and Python's uuid.uuid5).
    ['www.example.com', '2ed6657d-e927-568b-95e1-2665a8aea6a2'],
    ['python.org', '886313e1-3b8a-5372-9b90-0c9aee199e5d'],
  ])('names %j in the DNS namespace as %s', (name, expected) => {
    expect(uuidV5(name, dnsNamespace)).toBe(expected);
  });

  it('gives different ids in different namespaces', () => {
    const other = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';
    expect(uuidV5('brushing', dnsNamespace)).not.toBe(uuidV5('brushing', other));
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('brushing', 'not-a-uuid')).toThrow('Not a UUID');
  });
});
