import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activityPage,
  auditPaths,
  clinicMessagePaths,
  clinicMessageThread,
  clinicMessageThreadList,
  clinicMessageThreadSummary,
  createdMessage,
  medicalRecordPaths,
  messageAttachmentNotFoundMessage,
  messagePaths,
  messageSendLimit,
  messageThread,
  messageThreadList,
  messageThreadNotFoundMessage,
  unreadMessages,
  type MedicalRecord,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { dataUrlOf, makePdf } from '#api-test/fixtures/upload-test-files';
import { staffFactories, type TestStaff } from '#api-test/staff';
import { addDentalAiResult, fetchLink } from '#api-test/support/files';
import { auditEvents, messageAttachments, messages, messageThreads } from '#api/db/schema';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let staffFactory: ReturnType<typeof staffFactories>;
let pdf: string;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  staffFactory = staffFactories(t);
  pdf = dataUrlOf(makePdf(), 'application/pdf');
});
afterAll(() => t.close());

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;
type Staff = TestStaff & { tokens: { access: string } };

const as = (reader: { tokens: { access: string } }, body?: unknown) => ({
  token: reader.tokens.access,
  body,
});

async function addRecord(member: Member): Promise<MedicalRecord> {
  const res = await t.request('POST', medicalRecordPaths.list, {
    ...as(member),
    body: {
      title: 'Referral letter',
      record_date: '2026-04-02',
      medical_files: [{ file_name: 'letter.pdf', file_link: pdf }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalRecord>();
}

async function start(member: Member, body: unknown): Promise<string> {
  const res = await t.request('POST', messagePaths.threads, as(member, body));
  expect(res.statusCode, res.body).toBe(201);
  return createdMessage.parse(res.json()).id;
}

async function staffRead(reader: Staff, threadId: string) {
  const res = await t.request('GET', clinicMessagePaths.thread(threadId), as(reader));
  expect(res.statusCode, res.body).toBe(200);
  return clinicMessageThread.parse(res.json());
}

async function rowCounts() {
  const [threads, written, attached] = await Promise.all([
    t.db.$count(messageThreads),
    t.db.$count(messages),
    t.db.$count(messageAttachments),
  ]);
  return { threads, written, attached };
}

describe('a member’s conversation with the practice', () => {
  it('starts a thread, lists it newest first with unread counts, and reads the replies', async () => {
    const member = await factory.loggedInMember({ username: 'Pat' });
    const ada = await staffFactory.loggedInStaff('practitioner');
    const first = await start(member, { subject: 'Sore gum', body: 'It hurts since Monday.' });
    t.clock.advance(1000);
    const second = await start(member, { subject: 'Invoice', body: 'Where is it?' });
    t.clock.advance(1000);

    await staffRead(ada, first);
    const reply = await t.request('POST', clinicMessagePaths.thread(first), {
      ...as(ada, { body: 'Please rinse with warm salt water.' }),
    });
    expect(reply.statusCode, reply.body).toBe(201);

    const list = messageThreadList.parse(
      (await t.request('GET', messagePaths.threads, as(member))).json(),
    );
    // The reply moved the first thread to the top.
    expect(list.results.map((thread) => [thread.id, thread.unread])).toEqual([
      [first, 1],
      [second, 0],
    ]);
    expect(
      unreadMessages.parse((await t.request('GET', messagePaths.unread, as(member))).json()),
    ).toEqual({ unread: 1 });

    const read = await t.request('GET', messagePaths.thread(first), as(member));
    expect(read.statusCode, read.body).toBe(200);
    const thread = messageThread.parse(read.json());
    expect(thread.messages.map((m) => [m.author, m.body])).toEqual([
      [{ role: 'member', name: 'Pat' }, 'It hurts since Monday.'],
      [{ role: 'staff', name: ada.username }, 'Please rinse with warm salt water.'],
    ]);
    expect(
      unreadMessages.parse((await t.request('GET', messagePaths.unread, as(member))).json()),
    ).toEqual({ unread: 0 });
    // The staff member's read shows as read on the member's own message.
    expect(thread.messages[0]?.read_at).not.toBeNull();
  });

  it('keeps bodies as plain text: markup comes back as typed, never turned into HTML', async () => {
    const member = await factory.loggedInMember();
    const body = '<img src=x onerror=alert(1)> & <b>bold</b>';
    const id = await start(member, { subject: '<script>', body });
    const thread = messageThread.parse(
      (await t.request('GET', messagePaths.thread(id), as(member))).json(),
    );
    expect([thread.subject, thread.messages[0]?.body]).toEqual(['<script>', body]);
  });

  it('hides another member’s thread: reading and replying answer 404 and change nothing', async () => {
    const [alice, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const id = await start(alice, { subject: 'Mine', body: 'Private.' });
    const before = await rowCounts();

    const read = await t.request('GET', messagePaths.thread(id), as(bob));
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ status: 404, detail: messageThreadNotFoundMessage });
    const write = await t.request('POST', messagePaths.thread(id), as(bob, { body: 'Hi' }));
    expect(write.statusCode).toBe(404);
    expect(await rowCounts()).toEqual(before);
    const list = messageThreadList.parse(
      (await t.request('GET', messagePaths.threads, as(bob))).json(),
    );
    expect(list.results).toEqual([]);
  });

  it('refuses another member’s item as an attachment (404) and creates nothing', async () => {
    const [alice, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const [bobsPhoto, alicesPhoto] = await Promise.all([
      factory.oralPhoto(bob),
      factory.oralPhoto(alice),
    ]);
    const bobsResult = await addDentalAiResult(t, bob);
    const id = await start(alice, { subject: 'Mine', body: 'Private.' });
    const before = await rowCounts();

    for (const attachments of [
      [{ kind: 'photo', id: bobsPhoto.id }],
      [
        { kind: 'photo', id: alicesPhoto.id },
        { kind: 'dental_ai', id: bobsResult.id },
      ],
      // Alice's photo id named as a record is not one of her records.
      [{ kind: 'record', id: alicesPhoto.id }],
    ]) {
      const created = await t.request(
        'POST',
        messagePaths.threads,
        as(alice, { subject: 'X-ray', body: 'See attached', attachments }),
      );
      expect(created.statusCode, created.body).toBe(404);
      expect(created.json()).toMatchObject({ detail: messageAttachmentNotFoundMessage });
      const replied = await t.request(
        'POST',
        messagePaths.thread(id),
        as(alice, { body: 'See attached', attachments }),
      );
      expect(replied.statusCode).toBe(404);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('answers bad input with a problem naming the field, and changes nothing', async () => {
    const member = await factory.loggedInMember();
    const staff = await staffFactory.loggedInStaff('clinic_admin');
    const id = await start(member, { subject: 'Hello', body: 'First' });
    const before = await rowCounts();
    const cases: [string, string, unknown, string][] = [
      [messagePaths.threads, 'POST', { subject: '', body: 'x' }, 'subject'],
      [messagePaths.threads, 'POST', { subject: 's'.repeat(201), body: 'x' }, 'subject'],
      [messagePaths.threads, 'POST', { subject: 'Hi', body: ' \n ' }, 'body'],
      [messagePaths.threads, 'POST', { subject: 'Hi', body: 'x'.repeat(5001) }, 'body'],
      [messagePaths.threads, 'POST', { subject: 'Hi\u0000', body: 'x' }, 'subject'],
      [
        messagePaths.threads,
        'POST',
        { subject: 'Hi', body: 'x', attachments: [{ kind: 'tooth', id: randomUUID() }] },
        'attachments.0.kind',
      ],
      [messagePaths.thread(id), 'POST', { body: '' }, 'body'],
    ];
    for (const [url, method, body, field] of cases) {
      const res = await t.request(method as 'POST', url, as(member, body));
      expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toContain(field);
    }
    for (const [method, body, field] of [
      ['POST', { body: 'x'.repeat(5001) }, 'body'],
      ['PATCH', { status: 'archived' }, 'status'],
      ['PATCH', {}, 'status'],
      ['PATCH', { assigned_to: 'nobody' }, 'assigned_to'],
    ] as const) {
      const res = await t.request(method, clinicMessagePaths.thread(id), as(staff, body));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toContain(field);
    }
    // A member of the practice's patients is not a staff member to assign to.
    const assign = await t.request(
      'PATCH',
      clinicMessagePaths.thread(id),
      as(staff, { assigned_to: member.id }),
    );
    expect(assign.statusCode).toBe(422);
    expect(await rowCounts()).toEqual(before);
    const [thread] = await t.db.select().from(messageThreads).where(eq(messageThreads.id, id));
    expect([thread?.status, thread?.assignedTo]).toEqual(['open', null]);
  });

  it('limits how many messages one account sends per window, counted in the database', async () => {
    const member = await factory.loggedInMember();
    const id = await start(member, { subject: 'Many', body: '1' });
    const sends = await Promise.all(
      Array.from({ length: messageSendLimit.max + 2 }, (_, index) =>
        t.request('POST', messagePaths.thread(id), as(member, { body: String(index) })),
      ),
    );
    const codes = sends.map((res) => res.statusCode);
    // The thread's first message counted too.
    expect(codes.filter((code) => code === 201)).toHaveLength(messageSendLimit.max - 1);
    expect(codes.filter((code) => code === 429)).toHaveLength(3);
    const refused = sends.find((res) => res.statusCode === 429);
    expect(refused?.headers['retry-after']).toBeDefined();
    expect(await t.db.$count(messages, eq(messages.threadId, id))).toBe(messageSendLimit.max);
  });

  it('lets a staff member, who answers every patient, send more than a member may', async () => {
    const member = await factory.loggedInMember();
    const ada = await staffFactory.loggedInStaff('practitioner');
    const id = await start(member, { subject: 'Many', body: '1' });
    for (let index = 0; index <= messageSendLimit.max; index++) {
      const res = await t.request('POST', clinicMessagePaths.thread(id), as(ada, { body: 'Ok' }));
      expect(res.statusCode, String(index)).toBe(201);
    }
  });

  it('is the member’s own: a delegate’s ?member= answers 404', async () => {
    const member = await factory.loggedInMember();
    const id = await start(member, { subject: 'Mine', body: 'Private.' });
    const other = await factory.loggedInMember();
    for (const url of [messagePaths.threads, messagePaths.thread(id), messagePaths.unread]) {
      const res = await t.request('GET', `${url}?member=${member.id}`, as(other));
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe('the practice’s side', () => {
  it('lets staff open exactly the attached items, and none of the member’s others', async () => {
    const member = await factory.loggedInMember();
    const ada = await staffFactory.loggedInStaff('practitioner');
    const [xray, unattached] = [await factory.oralPhoto(member), await factory.oralPhoto(member)];
    const record = await addRecord(member);
    const result = await addDentalAiResult(t, member);
    const id = await start(member, {
      subject: 'My X-ray',
      body: 'What is this shadow?',
      attachments: [
        { kind: 'photo', id: xray.id },
        { kind: 'record', id: record.id },
        { kind: 'dental_ai', id: result.id },
      ],
    });

    const thread = await staffRead(ada, id);
    const [attachments] = thread.messages.map((m) => m.attachments);
    expect(attachments?.map((a) => [a.kind, a.id])).toEqual([
      ['photo', xray.id],
      ['record', record.id],
      ['dental_ai', result.id],
    ]);
    const photo = attachments?.[0]?.kind === 'photo' ? attachments[0].photo : null;
    const file = attachments?.[1]?.kind === 'record' ? attachments[1].record : null;
    const aiResult = attachments?.[2]?.kind === 'dental_ai' ? attachments[2].dental_ai : null;
    const links = [
      photo?.image_link,
      photo?.thumbnail_link,
      file?.medical_files[0]?.file_link,
      aiResult?.image_url,
    ];
    for (const link of links) {
      expect(link).toMatch(/^\/api\/care-team-files\//);
      expect(link).not.toContain(member.id);
      expect((await fetchLink(t, link ?? '')).statusCode).toBe(200);
    }
    expect(JSON.stringify(thread)).not.toContain(unattached.id);

    // A staff link made for an item the member did not attach does not open.
    const scoped = t.services.staffFiles.scope(ada.id, {
      photos: [unattached],
      records: [],
    });
    expect((await fetchLink(t, scoped.photos[0]?.image_link ?? '')).statusCode).toBe(404);
    // Nor does a link of another staff account's, or one moved to another file.
    const forged = (photo?.image_link ?? '').replace(
      /care-team-files\/[^/]+\//,
      `care-team-files/${ada.id}/x/`,
    );
    expect((await fetchLink(t, forged)).statusCode).toBe(403);
  });

  it('lists open and closed threads with the assignee, and staff reply, assign and close', async () => {
    const member = await factory.loggedInMember({ username: 'Sam' });
    const [ada, admin] = [
      await staffFactory.loggedInStaff('practitioner'),
      await staffFactory.loggedInStaff('clinic_admin'),
    ];
    const id = await start(member, { subject: 'Crown', body: 'It came loose.' });

    const open = clinicMessageThreadList.parse(
      (await t.request('GET', `${clinicMessagePaths.threads}?status=open`, as(admin))).json(),
    );
    expect(open.results.find((thread) => thread.id === id)).toMatchObject({
      patient: { id: member.id, username: 'Sam' },
      assigned_to: null,
      unread: 1,
    });
    const unread = unreadMessages.parse(
      (await t.request('GET', clinicMessagePaths.unread, as(admin))).json(),
    );
    expect(unread.unread).toBeGreaterThanOrEqual(1);

    const assigned = await t.request(
      'PATCH',
      clinicMessagePaths.thread(id),
      as(admin, { assigned_to: ada.id }),
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(clinicMessageThreadSummary.parse(assigned.json()).assigned_to).toEqual({
      id: ada.id,
      name: ada.username,
    });
    // Every staff member of the practice reads every thread (practice-wide).
    const read = await staffRead(admin, id);
    expect(read.messages[0]?.body).toBe('It came loose.');
    const closed = await t.request(
      'PATCH',
      clinicMessagePaths.thread(id),
      as(ada, { status: 'closed' }),
    );
    expect(closed.statusCode).toBe(200);
    const closedList = clinicMessageThreadList.parse(
      (await t.request('GET', `${clinicMessagePaths.threads}?status=closed`, as(ada))).json(),
    );
    expect(closedList.results.map((thread) => thread.id)).toContain(id);

    // The member writing again opens it again.
    await t.request('POST', messagePaths.thread(id), as(member, { body: 'Still loose.' }));
    const reopened = clinicMessageThreadList.parse(
      (await t.request('GET', clinicMessagePaths.threads, as(ada))).json(),
    );
    expect(reopened.results.find((thread) => thread.id === id)?.status).toBe('open');
  });

  it('refuses member tokens on every clinic messages route (403) and no token (401)', async () => {
    const member = await factory.loggedInMember();
    const id = await start(member, { subject: 'Mine', body: 'Private.' });
    const before = await rowCounts();
    const routes = [
      ['GET', clinicMessagePaths.threads, undefined],
      ['GET', clinicMessagePaths.unread, undefined],
      ['GET', clinicMessagePaths.thread(id), undefined],
      ['POST', clinicMessagePaths.thread(id), { body: 'As staff?' }],
      ['PATCH', clinicMessagePaths.thread(id), { status: 'closed' }],
    ] as const;
    for (const [method, url, body] of routes) {
      expect((await t.request(method, url, as(member, body))).statusCode, url).toBe(403);
      expect((await t.request(method, url, { body })).statusCode, url).toBe(401);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('answers 404 for a thread that does not exist', async () => {
    const ada = await staffFactory.loggedInStaff('practitioner');
    const res = await t.request('GET', clinicMessagePaths.thread(randomUUID()), as(ada));
    expect(res.statusCode).toBe(404);
  });

  it('writes each staff read and reply into the member’s chain, named in their activity', async () => {
    const member = await factory.loggedInMember();
    const ada = await staffFactory.loggedInStaff('practitioner');
    const xray = await factory.oralPhoto(member);
    const id = await start(member, {
      subject: 'Tooth',
      body: 'See the X-ray.',
      attachments: [{ kind: 'photo', id: xray.id }],
    });
    await t.request('GET', clinicMessagePaths.threads, as(ada));
    const thread = await staffRead(ada, id);
    const attached = thread.messages[0]?.attachments[0];
    const link = attached?.kind === 'photo' ? attached.photo?.image_link : undefined;
    expect((await fetchLink(t, link ?? '')).statusCode).toBe(200);
    const reply = await t.request('POST', clinicMessagePaths.thread(id), as(ada, { body: 'Ok' }));
    const replyId = createdMessage.parse(reply.json()).id;

    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, member.id), eq(auditEvents.actor, ada.id)));
    expect(rows.map((row) => [row.action, row.resourceType, row.resourceId])).toEqual([
      ['read', 'message_thread_list', id],
      ['read', 'message_thread', id],
      ['download', 'x_ray', xray.id],
      ['create', 'message', replyId],
    ]);
    const activity = activityPage.parse(
      (await t.request('GET', auditPaths.activity, as(member))).json(),
    );
    const byStaff = activity.results.filter((entry) => entry.actor_staff !== null);
    expect(byStaff.map((entry) => [entry.action, entry.resource_type, entry.actor_staff])).toEqual([
      ['create', 'message', { id: ada.id, name: ada.username }],
      ['download', 'x_ray', { id: ada.id, name: ada.username }],
      ['read', 'message_thread', { id: ada.id, name: ada.username }],
      ['read', 'message_thread_list', { id: ada.id, name: ada.username }],
    ]);
  });
});
