import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SmsDeliveryError } from './sms-sender';
import { TwilioSms } from './twilio-sms';
import { startTwilioTestServer, type TwilioTestServer } from '#api-test/mocks/twilio-test-server';

const reminder = {
  to: '+14155550123',
  body: 'Reminder: dental appointment on 03-14-2025 Fri at 09:30 AM. https://example.test/appointments/1/edit',
};

async function deliveryFailure(promise: Promise<unknown>): Promise<SmsDeliveryError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof SmsDeliveryError)) throw new Error('expected an SmsDeliveryError');
  return error;
}

describe('TwilioSms against a server speaking the Messages API', () => {
  let server: TwilioTestServer;
  let sms: TwilioSms;

  beforeEach(async () => {
    server = await startTwilioTestServer();
    sms = new TwilioSms({
      accountSid: server.accountSid,
      authToken: server.authToken,
      from: '+15005550006',
      baseUrl: server.baseUrl,
    });
  });
  afterEach(async () => {
    await server.close();
  });

  it('posts To, From and Body with the account credentials and answers the message SID', async () => {
    const sent = await sms.send(reminder);
    expect(server.received).toEqual([
      { sid: sent.id, to: reminder.to, from: '+15005550006', body: reminder.body },
    ]);
    expect(sent.id).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it.each([429, 500, 503])(
    'reports HTTP %i as a retryable failure, and the retry goes through',
    async (status) => {
      server.failNext(status);
      const error = await deliveryFailure(sms.send(reminder));
      expect(error).toMatchObject({ retryable: true, status });
      expect(server.received).toEqual([]);

      await sms.send(reminder);
      expect(server.received).toHaveLength(1);
    },
  );

  it('reports refused credentials as a failure that retrying cannot fix', async () => {
    const wrongToken = new TwilioSms({
      accountSid: server.accountSid,
      authToken: 'not-the-token',
      from: '+15005550006',
      baseUrl: server.baseUrl,
    });
    const error = await deliveryFailure(wrongToken.send(reminder));
    expect(error).toMatchObject({ retryable: false, status: 401 });
    expect(error.message).toBe('Twilio refused the SMS: HTTP 401, error code 20003');
  });

  it('keeps the phone number and text out of the error', async () => {
    server.failNext(500);
    const error = await deliveryFailure(sms.send(reminder));
    expect(error.message).not.toContain(reminder.to);
    expect(error.message).not.toContain('dental');
    expect(error.cause).toBeUndefined();
  });

  it('reports an unreachable provider as retryable', async () => {
    const stopped = await startTwilioTestServer();
    await stopped.close();
    const unreachable = new TwilioSms({
      accountSid: stopped.accountSid,
      authToken: stopped.authToken,
      from: '+15005550006',
      baseUrl: stopped.baseUrl,
    });
    const error = await deliveryFailure(unreachable.send(reminder));
    expect(error).toMatchObject({ retryable: true, status: undefined });
    expect(error.message).toMatch(/^Twilio could not be reached: /);
  });
});
