import { describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { connectionLossOf, DatabaseOutage } from './database-outage';

const driverError = (code: string, message = 'server said no') =>
  Object.assign(new Error(message), { code });

describe('connectionLossOf', () => {
  it.each([
    ['a restart (57P01 admin_shutdown)', driverError('57P01')],
    ['a crash of another backend (57P02)', driverError('57P02')],
    ['a server still starting or stopping (57P03)', driverError('57P03')],
    ['a connection exception (08006)', driverError('08006')],
    ['a refused connection', driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', driverError('ECONNRESET')],
    ['a connection ended under a query', new Error('Connection terminated unexpectedly')],
    [
      'a query on a connection that broke',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'drizzle wrapping the driver',
      new DrizzleQueryError('insert into "x" values ($1)', ['secret'], driverError('57P01')),
    ],
    ['pg-boss copying a failed poll', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }],
  ])('finds %s', (_, error) => {
    expect(connectionLossOf(error)).toBeDefined();
  });

  it.each([
    ['a unique violation (23505)', driverError('23505')],
    ['a syntax error (42601)', driverError('42601')],
    ['a wrong password (28P01)', driverError('28P01')],
    ['an error of the app', new Error('Not found')],
    ['something that is not an error', 'Connection terminated'],
  ])('ignores %s', (_, error) => {
    expect(connectionLossOf(error)).toBeUndefined();
  });

  it("answers the driver's error, not drizzle's, whose message lists the parameters", () => {
    const cause = driverError('57P01', 'terminating connection due to administrator command');
    const wrapped = new DrizzleQueryError('select $1', ['secret'], cause);

    expect(connectionLossOf(wrapped)).toBe(cause);
  });
});

describe('DatabaseOutage', () => {
  it('logs an outage once when it starts and once when it ends', () => {
    const lines: string[] = [];
    const record = (details: object, message: string) => {
      lines.push(`${message} ${JSON.stringify(details)}`);
    };
    const outage = new DatabaseOutage({ error: record, warn: record });

    outage.restored();
    outage.lost(driverError('57P01', 'terminating connection due to administrator command'));
    outage.lost(driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    outage.restored();
    outage.restored();

    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"code":"57P01"');
    expect(lines[1]).toMatch(/^database reachable again /);
  });

  it('does not tell again a loss noticed by a connection or request from before the database was back', () => {
    const lines: string[] = [];
    const record = (_details: object, message: string) => {
      lines.push(message);
    };
    const outage = new DatabaseOutage({ error: record, warn: record });
    const restart = driverError('57P01', 'terminating connection due to administrator command');
    const before = Date.now() - 1_000;

    outage.lost(restart, before);
    outage.restored();
    // A request that began before the database was back reports its failure late.
    outage.lost(restart, before);
    expect(lines).toEqual([
      'database unreachable; requests answer 503 until it is back',
      'database reachable again',
    ]);
    // A connection made afterwards that loses the database is a new outage.
    outage.lost(restart, Date.now() + 1);
    expect(lines).toHaveLength(3);
  });
});
