import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { consoleDestination, loggerOptions, redactUrl, serializeError } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/update-password?key=abc123', '/update-password?key=[Redacted]'],
    ['/x?a=1&token=t&b=2', '/x?a=1&token=[Redacted]&b=2'],
    ['/x?refresh=r&access=a', '/x?refresh=[Redacted]&access=[Redacted]'],
    ['/api/account/', '/api/account/'],
    ['/s/AbC-123_x', '/s/[Redacted]'],
    ['/api/shared/AbC-123_x/', '/api/shared/[Redacted]/'],
    ['/api/calendar/AbC-123_x/feed.ics', '/api/calendar/[Redacted]/feed.ics'],
    ['/api/share-link/', '/api/share-link/'],
    ['/settings/s/x', '/settings/s/x'],
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

describe('consoleDestination', () => {
  /** One request-style log line through Fastify's logger into a stand-in for stdout. */
  async function logThrough(isTTY: boolean): Promise<string> {
    const written: string[] = [];
    const output = { isTTY, write: (line: string) => written.push(line) };
    const app = Fastify({ logger: loggerOptions('info', consoleDestination(output)) });
    app.log.info({ password: 'hunter2', photoType: 'all' }, 'photo listed');
    await app.close();
    return written.join('');
  }

  it('writes one JSON object per line when stdout is not a terminal', async () => {
    const line = (await logThrough(false)).split('\n')[0] ?? '';
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      msg: 'photo listed',
      password: '[Redacted]',
      photoType: 'all',
    });
  });

  it('writes readable, still redacted lines when stdout is a terminal', async () => {
    const text = await logThrough(true);
    expect(() => {
      JSON.parse(text.split('\n')[0] ?? '');
    }).toThrow();
    expect(text).toContain('INFO');
    expect(text).toContain('photo listed');
    expect(text).toContain('[Redacted]');
    expect(text).not.toContain('hunter2');
  });
});
