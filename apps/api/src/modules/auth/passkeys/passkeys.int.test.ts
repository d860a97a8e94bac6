import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import {
  accountPaths,
  lastSignInMethodPasskeyMessage,
  mfaChallenge,
  mfaTokenExpiredMessage,
  activityPage,
  auditPaths,
  passkeyChallengeExpiredMessage,
  passkeyChallengeLifetimeMs,
  passkeyList,
  passkeyNotVerifiedMessage,
  passkeyPaths,
  tokenPair,
  webAuthnOptions,
  type TokenPair,
} from '@dental/contracts';
import { socialAccounts, users } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, type TestMember } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { TestPasskey } from '#api-test/support/webauthn';
import { deactivatedMessage } from '../sign-in';
import { passkeyNotFoundMessage } from './passkeys.service';

const origin = 'https://dental.example';
const rpId = 'dental.example';
const customerServiceEmail = 'care@clinic.example';

let inbox: SmtpInbox;
let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({
    env: {
      SMTP_URL: inbox.url,
      PUBLIC_URL: origin,
      COMPANY_NAME: 'Bright Smile',
      CUSTOMER_SERVICE_EMAIL: customerServiceEmail,
    },
  });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

type Member = TestMember & { tokens: TokenPair };

async function challengeFor(path: string, token?: string): Promise<string> {
  const res = await t.request('POST', path, token === undefined ? {} : { token });
  expect(res.statusCode).toBe(200);
  return webAuthnOptions.parse(res.json()).challenge;
}

const addPasskey = (member: Member, response: unknown, name = 'Work laptop') =>
  t.request('POST', passkeyPaths.list, { token: member.tokens.access, body: { name, response } });

const signIn = (response: unknown) =>
  t.request('POST', passkeyPaths.signIn, { body: { response } });

async function listOf(member: Member) {
  const res = await t.request('GET', passkeyPaths.list, { token: member.tokens.access });
  expect(res.statusCode).toBe(200);
  return passkeyList.parse(res.json());
}

/** A member with one registered passkey, and that passkey. */
async function memberWithPasskey(): Promise<{ member: Member; passkey: TestPasskey; id: string }> {
  const member = await factory.loggedInMember();
  const passkey = new TestPasskey({ origin, rpId });
  const challenge = await challengeFor(passkeyPaths.registrationOptions, member.tokens.access);
  const res = await addPasskey(member, passkey.register(challenge));
  expect(res.statusCode).toBe(201);
  return { member, passkey, id: res.json<{ id: string }>().id };
}

describe('registering a passkey', () => {
  it('offers options for this site and member, keeps the verified passkey under its name, e-mails the member and writes the audit trail', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('POST', passkeyPaths.registrationOptions, {
      token: member.tokens.access,
    });
    const options = res.json<{ rp: { id: string }; user: { name: string } }>();
    expect(options.rp.id).toBe(rpId);
    expect(options.user.name).toBe(member.email);
    const passkey = new TestPasskey({ origin, rpId });
    const challenge = webAuthnOptions.parse(res.json()).challenge;

    const added = await addPasskey(member, passkey.register(challenge), '  Phone  ');
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'Phone', last_used_at: null });
    expect(await listOf(member)).toEqual([added.json()]);

    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toBe('A passkey was added to your Bright Smile account');
    expect(mail.text).toContain('The passkey “Phone” was added to your Bright Smile account.');

    const activity = await t.request('GET', auditPaths.activity, { token: member.tokens.access });
    expect(activityPage.parse(activity.json()).results[0]).toMatchObject({
      action: 'passkey_add',
      resource_type: 'passkey',
      resource_id: added.json<{ id: string }>().id,
      result: 'success',
    });
  });

  it('refuses a response made for another origin or another relying party, and keeps nothing', async () => {
    const member = await factory.loggedInMember();
    const passkey = new TestPasskey({ origin, rpId });
    for (const where of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const challenge = await challengeFor(passkeyPaths.registrationOptions, member.tokens.access);
      const res = await addPasskey(member, passkey.register(challenge, where));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail: passkeyNotVerifiedMessage });
    }
    expect(await listOf(member)).toEqual([]);
  });

  it('uses each challenge once, for its own member only, and not after 5 minutes', async () => {
    const member = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const challenge = await challengeFor(passkeyPaths.registrationOptions, member.tokens.access);
    const response = new TestPasskey({ origin, rpId }).register(challenge);
    // Another member cannot answer this member's challenge...
    expect((await addPasskey(other, response)).json()).toMatchObject({
      detail: passkeyChallengeExpiredMessage,
    });
    // ...the member can, once...
    expect((await addPasskey(member, response)).statusCode).toBe(201);
    const replay = await addPasskey(member, new TestPasskey({ origin, rpId }).register(challenge));
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ detail: passkeyChallengeExpiredMessage });
    // ...and not once it is older than 5 minutes.
    const late = await challengeFor(passkeyPaths.registrationOptions, member.tokens.access);
    t.clock.advance(passkeyChallengeLifetimeMs);
    const expired = await addPasskey(member, new TestPasskey({ origin, rpId }).register(late));
    expect(expired.json()).toMatchObject({ status: 400, detail: passkeyChallengeExpiredMessage });
    expect(await listOf(member)).toHaveLength(1);
    expect(await listOf(other)).toEqual([]);
  });

  it('needs a recent sign-in', async () => {
    const member = await factory.loggedInMember();
    t.clock.advance(t.config.session.reauthMinutes * 60 * 1000 + 1000);
    const res = await t.request('POST', passkeyPaths.registrationOptions, {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('signing in with a passkey', () => {
  it('starts a session of the passkey’s member without an e-mail, records the use and refuses a signature whose counter did not rise', async () => {
    const { member, passkey } = await memberWithPasskey();
    const res = await signIn(passkey.assert(await challengeFor(passkeyPaths.signInOptions)));
    expect(res.statusCode).toBe(200);
    const tokens = tokenPair.parse(res.json());
    expect(decodeJwt(tokens.access).sub).toBe(member.id);
    const account = await t.request('GET', accountPaths.account, { token: tokens.access });
    expect(account.json()).toMatchObject({ email: member.email });
    expect((await listOf(member))[0]?.last_used_at).not.toBeNull();

    // A copy of the key signs with a counter the server has already seen.
    const cloned = passkey.assert(await challengeFor(passkeyPaths.signInOptions), {
      counter: passkey.counter,
    });
    expect((await signIn(cloned)).json()).toMatchObject({
      status: 401,
      detail: passkeyNotVerifiedMessage,
    });
    const next = await signIn(passkey.assert(await challengeFor(passkeyPaths.signInOptions)));
    expect(next.statusCode).toBe(200);
  });

  it('refuses the same signed answer twice, and one for another origin or relying party', async () => {
    const { passkey } = await memberWithPasskey();
    const response = passkey.assert(await challengeFor(passkeyPaths.signInOptions));
    expect((await signIn(response)).statusCode).toBe(200);
    expect((await signIn(response)).json()).toMatchObject({
      status: 400,
      detail: passkeyChallengeExpiredMessage,
    });
    for (const where of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const forged = passkey.assert(await challengeFor(passkeyPaths.signInOptions), where);
      expect((await signIn(forged)).json()).toMatchObject({
        status: 401,
        detail: passkeyNotVerifiedMessage,
      });
    }
  });

  it('refuses a registration challenge and a passkey that is not registered', async () => {
    const { member, passkey } = await memberWithPasskey();
    const registration = await challengeFor(passkeyPaths.registrationOptions, member.tokens.access);
    expect((await signIn(passkey.assert(registration))).statusCode).toBe(400);
    const unknown = new TestPasskey({ origin, rpId });
    const res = await signIn(unknown.assert(await challengeFor(passkeyPaths.signInOptions)));
    expect(res.statusCode).toBe(401);
  });

  it('tells a deactivated member so, and starts no session', async () => {
    const { member, passkey } = await memberWithPasskey();
    await t.services.accounts.deactivate(member.id);
    const res = await signIn(passkey.assert(await challengeFor(passkeyPaths.signInOptions)));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ detail: deactivatedMessage(customerServiceEmail) });
  });
});

describe('the second step of a password login', () => {
  it('is answered by a passkey of that member only, and once', async () => {
    const { member, passkey } = await memberWithPasskey();
    const stranger = await memberWithPasskey();
    const login = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: member.email, password: member.password },
    });
    const { mfa_token } = mfaChallenge.parse(login.json());
    const secondStep = async () => {
      const res = await t.request('POST', passkeyPaths.secondFactorOptions, {
        body: { mfa_token },
      });
      return res.json<{ challenge: string; allowCredentials: { id: string }[] }>();
    };
    const answer = (response: unknown) =>
      t.request('POST', passkeyPaths.secondFactor, { body: { mfa_token, response } });

    const options = await secondStep();
    expect(options.allowCredentials.map((credential) => credential.id)).toEqual([passkey.id]);
    const foreign = await answer(stranger.passkey.assert(options.challenge));
    expect(foreign.statusCode).toBe(401);

    const res = await answer(passkey.assert((await secondStep()).challenge));
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(tokenPair.parse(res.json()).access).sub).toBe(member.id);
    const again = await answer(passkey.assert((await secondStep()).challenge));
    expect(again.json()).toMatchObject({ status: 401, detail: mfaTokenExpiredMessage });
  });
});

describe('removing a passkey', () => {
  it('removes the member’s own passkey and e-mails them; another member’s id is 404 and stays', async () => {
    const { member, id } = await memberWithPasskey();
    const other = await factory.loggedInMember();
    const path = `${passkeyPaths.list}${id}/`;

    const foreign = await t.request('DELETE', path, { token: other.tokens.access });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ detail: passkeyNotFoundMessage });
    expect(await listOf(member)).toHaveLength(1);

    const res = await t.request('DELETE', path, { token: member.tokens.access });
    expect(res.statusCode).toBe(204);
    expect(await listOf(member)).toEqual([]);
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toBe('A passkey was removed from your Bright Smile account');
    const activity = await t.request('GET', auditPaths.activity, { token: member.tokens.access });
    expect(activityPage.parse(activity.json()).results[0]).toMatchObject({
      action: 'passkey_remove',
      resource_id: id,
    });
  });

  it('needs a recent sign-in', async () => {
    const { member, id } = await memberWithPasskey();
    t.clock.advance(t.config.session.reauthMinutes * 60 * 1000 + 1000);
    const res = await t.request('DELETE', `${passkeyPaths.list}${id}/`, {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(403);
    expect(await listOf(member)).toHaveLength(1);
  });

  it('keeps the last way in of a member without a password', async () => {
    const { member, id } = await memberWithPasskey();
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, member.id));
    const res = await t.request('DELETE', `${passkeyPaths.list}${id}/`, {
      token: member.tokens.access,
    });
    expect(res.json()).toMatchObject({ status: 409, detail: lastSignInMethodPasskeyMessage });
    expect(await listOf(member)).toHaveLength(1);
  });

  it('counts a passkey and a linked account alike as ways in of a member without a password', async () => {
    const { member, id } = await memberWithPasskey();
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, member.id));
    const [link] = await t.db
      .insert(socialAccounts)
      .values({
        userId: member.id,
        provider: 'google',
        subject: randomUUID(),
        linkedAt: t.clock.now(),
      })
      .returning();
    // The passkey remains, so the linked account may go.
    const unlinked = await t.request(
      'DELETE',
      `${accountPaths.socialMediaAccount}google/${link?.id ?? ''}/`,
      { token: member.tokens.access },
    );
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    // Now the passkey is the only way in.
    const res = await t.request('DELETE', `${passkeyPaths.list}${id}/`, {
      token: member.tokens.access,
    });
    expect(res.json()).toMatchObject({ status: 409, detail: lastSignInMethodPasskeyMessage });
    expect(await listOf(member)).toHaveLength(1);
  });
});
