import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redactUrl, serializeError } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/update-password?key=abc123', '/update-password?key=[Redacted]'],
    ['/x?a=1&token=t&b=2', '/x?a=1&token=[Redacted]&b=2'],
    ['/x?refresh=r&access=a', '/x?refresh=[Redacted]&access=[Redacted]'],
    ['/api/account/', '/api/account/'],
    ['/oral-photo/?photoType=all', '/oral-photo/?photoType=all'],
    [
      '/api/files/users/u/oral-photo/f.png?exp=1&type=image%2Fpng&disp=inline&name=Molar.png&sig=abc',
      '/api/files/users/u/oral-photo/f.png?exp=1&type=image%2Fpng&disp=inline&name=[Redacted]&sig=[Redacted]',
    ],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('serializeError', () => {
  it('keeps a failed query’s SQL but not its parameters', () => {
    const cause = Object.assign(new Error('duplicate key value'), { code: '23505' });
    const error = new DrizzleQueryError(
      'insert into "users" ("password_hash") values ($1)',
      ['$argon2id$v=19$secret-hash'],
      cause,
    );
    const serialized = serializeError(error);
    expect(JSON.stringify(serialized)).not.toContain('secret-hash');
    expect(serialized.message).toBe(
      'Failed query: insert into "users" ("password_hash") values ($1)',
    );
    expect(serialized.cause).toMatchObject({ message: 'duplicate key value', code: '23505' });
  });

  it('serializes what is not an Error', () => {
    expect(serializeError('boom')).toMatchObject({ type: 'string', message: 'boom' });
  });
});
