import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  activityPage,
  auditPaths,
  careTeamPaths,
  clinicPatientPaths,
  clinicReview,
  clinicReviewList,
  clinicReviewPaths,
  oralPhotoList,
  plans,
  review,
  reviewList,
  reviewPaths,
  type ReviewAnswer,
} from '@dental/contracts';
import { auditEvents, messageNotices, photoReviews, users } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { storedDentalAiResult } from '#api-test/support/dental-ai-result';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { staffFactories } from '#api-test/staff';
import { fetchLink } from '#api-test/support/files';
import { withJobQueue } from '#api-test/support/job-queue-app';
import { reviewAnsweredSubject } from '../messages/message-notices.service';

let t: TestApp;
let smtp: SmtpInbox;
let factory: ReturnType<typeof factories>;
let staffFactory: ReturnType<typeof staffFactories>;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, JOB_POLL_SECONDS: '0.5' } });
  factory = factories(t);
  staffFactory = staffFactories(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;
type Staff = Awaited<ReturnType<typeof staffFactory.loggedInStaff>>;

const as = (who: { tokens: { access: string } }, body?: unknown) => ({
  token: who.tokens.access,
  body,
});

const question = 'Is this dark spot on my molar a cavity?';

/** A stored Dental AI result of the member (a 64 × 48 image) with two AI boxes. */
async function dentalAiResult(member: Member): Promise<string> {
  return (await storedDentalAiResult(t, member.id)).id;
}

async function ask(member: Member, body: unknown) {
  return t.request('POST', reviewPaths.root, as(member, body));
}

async function asked(member: Member, body: unknown): Promise<string> {
  const res = await ask(member, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** A Gold member: room for five reviews a year. */
async function goldMember(): Promise<Member> {
  const member = await factory.loggedInMember();
  await t.db.update(users).set({ customerLevel: 'Gold' }).where(eq(users.id, member.id));
  return member;
}

const answerOf = (findings: ReviewAnswer['findings']): ReviewAnswer => ({
  report: 'The first mark is an early cavity; the second is a stain.',
  findings,
});

type Finding = ReviewAnswer['findings'][number];
const confirmed: Finding = {
  box: [1, 1, 10, 10],
  label: 'Cavity',
  verdict: 'confirmed',
  ai_box: 0,
  photo: null,
};
const rejected: Finding = { ...confirmed, box: [20, 20, 30, 30], verdict: 'rejected', ai_box: 1 };
const added: Finding = { ...confirmed, box: [40, 5, 60, 20], verdict: 'added', ai_box: null };
const goodFindings = [confirmed, rejected, added];

describe('asking for a review', () => {
  it('stores a review of the member’s photos and answers it to them alone', async () => {
    const alice = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    const photo = await factory.oralPhoto(alice);
    const id = await asked(alice, { photos: [photo.id], question });

    const mine = review.parse((await t.request('GET', reviewPaths.one(id), as(alice))).json());
    expect(mine).toMatchObject({
      id,
      status: 'waiting',
      question,
      photos: [photo.id],
      dental_ai: null,
      report: null,
      findings: [],
      reviewer: null,
      answered_at: null,
    });
    expect(mine.images).toHaveLength(1);
    expect((await fetchLink(t, mine.images[0]?.image_url ?? '')).statusCode).toBe(200);

    expect((await t.request('GET', reviewPaths.one(id), as(bob))).statusCode).toBe(404);
    const bobs = reviewList.parse((await t.request('GET', reviewPaths.root, as(bob))).json());
    expect(bobs.results).toEqual([]);
  });

  it('refuses another member’s photo or Dental AI result, storing nothing', async () => {
    const alice = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    const photo = await factory.oralPhoto(alice);
    const result = await dentalAiResult(alice);
    expect((await ask(bob, { photos: [photo.id], question })).statusCode).toBe(404);
    expect((await ask(bob, { dental_ai: result, question })).statusCode).toBe(404);
    const list = reviewList.parse((await t.request('GET', reviewPaths.root, as(bob))).json());
    expect(list).toEqual({ results: [], uses: { plan: 'Silver', used: 0, allowed: 1 } });
  });

  it('asks for photos or a Dental AI result, not both and not neither', async () => {
    const alice = await factory.loggedInMember();
    const photo = await factory.oralPhoto(alice);
    const result = await dentalAiResult(alice);
    for (const body of [{ question }, { photos: [photo.id], dental_ai: result, question }]) {
      const res = await ask(alice, body);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('counts reviews against the plan and refuses one beyond it, creating nothing', async () => {
    const alice = await factory.loggedInMember();
    const photo = await factory.oralPhoto(alice);
    await asked(alice, { photos: [photo.id], question });
    const refused = await ask(alice, { photos: [photo.id], question });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      detail: `You have used all 1 dentist’s reviews of your Silver plan for this membership year. The Gold plan raises it to ${String(plans.Gold.photoReviewsPerYear)} a year.`,
    });
    const list = reviewList.parse((await t.request('GET', reviewPaths.root, as(alice))).json());
    expect(list.results).toHaveLength(1);
    expect(list.uses).toEqual({
      plan: 'Silver',
      used: 1,
      allowed: plans.Silver.photoReviewsPerYear,
    });
  });

  it('gives the last review of the plan to one of two asked at once', async () => {
    const alice = await factory.loggedInMember();
    const photo = await factory.oralPhoto(alice);
    const answers = await Promise.all([
      ask(alice, { photos: [photo.id], question }),
      ask(alice, { photos: [photo.id], question }),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 422]);
    const list = reviewList.parse((await t.request('GET', reviewPaths.root, as(alice))).json());
    expect(list.results).toHaveLength(1);
  });
});

describe('the practice’s side', () => {
  it('refuses a member’s token on every clinic review route', async () => {
    const alice = await factory.loggedInMember();
    const id = await asked(alice, { photos: [(await factory.oralPhoto(alice)).id], question });
    expect((await t.request('GET', clinicReviewPaths.list, as(alice))).statusCode).toBe(403);
    expect((await t.request('GET', clinicReviewPaths.one(id), as(alice))).statusCode).toBe(403);
    const put = await t.request('PUT', clinicReviewPaths.one(id), as(alice, answerOf([])));
    expect(put.statusCode).toBe(403);
  });

  it('shows the waiting review with its image and the AI’s boxes, each read in the patient’s chain', async () => {
    const ada: Staff = await staffFactory.loggedInStaff('practitioner');
    const alice = await goldMember();
    const result = await dentalAiResult(alice);
    const id = await asked(alice, { dental_ai: result, question });

    const waiting = clinicReviewList.parse(
      (await t.request('GET', `${clinicReviewPaths.list}?status=waiting`, as(ada))).json(),
    );
    expect(waiting.results.find((row) => row.id === id)).toMatchObject({
      question,
      patient: { id: alice.id, username: alice.username },
    });
    const one = clinicReview.parse(
      (await t.request('GET', clinicReviewPaths.one(id), as(ada))).json(),
    );
    expect(one.images).toHaveLength(1);
    expect(one.images[0]).toMatchObject({ photo: null, width: 64, height: 48 });
    expect(one.images[0]?.ai_boxes.map((box) => box.xmin)).toEqual([1, 20]);
    expect((await fetchLink(t, one.images[0]?.image_url ?? '')).statusCode).toBe(200);

    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.memberId, alice.id), eq(auditEvents.actor, ada.id)));
    expect(rows.map((row) => [row.action, row.resourceType, row.resourceId])).toEqual([
      ['read', 'photo_review', id],
      ['read', 'photo_review', id],
      ['download', 'dental_ai_result', result],
    ]);
    const activity = activityPage.parse(
      (await t.request('GET', auditPaths.activity, as(alice))).json(),
    );
    expect(
      activity.results
        .filter((entry) => entry.actor_staff !== null)
        .map((entry) => entry.actor_staff?.name),
    ).toEqual([ada.username, ada.username, ada.username]);
  });

  it('opens the photos of a review and none other of the member’s', async () => {
    const ada = await staffFactory.loggedInStaff('practitioner');
    const alice = await factory.loggedInMember();
    const [reviewed, other] = [await factory.oralPhoto(alice), await factory.oralPhoto(alice)];
    const id = await asked(alice, { photos: [reviewed.id], question });
    // A link to the other photo, from a share the member then stopped.
    await t.request('POST', careTeamPaths.access, as(alice, { photos: [other.id] }));
    const shared = oralPhotoList.parse(
      (await t.request('GET', clinicPatientPaths.oralPhotos(alice.id), as(ada))).json(),
    );
    expect(shared.map((photo) => photo.id)).toEqual([other.id]);
    const otherLink = shared[0]?.image_link ?? '';
    expect((await fetchLink(t, otherLink)).statusCode).toBe(200);
    await t.request('DELETE', careTeamPaths.access, as(alice));

    const one = clinicReview.parse(
      (await t.request('GET', clinicReviewPaths.one(id), as(ada))).json(),
    );
    expect(one.images.map((image) => image.photo)).toEqual([reviewed.id]);
    expect((await fetchLink(t, one.images[0]?.image_url ?? '')).statusCode).toBe(200);
    expect((await fetchLink(t, otherLink)).statusCode).toBe(404);
  });

  it('opens no image of a member who asked nothing, and no review that does not exist', async () => {
    const ada = await staffFactory.loggedInStaff('practitioner');
    const unknown = crypto.randomUUID();
    expect((await t.request('GET', clinicReviewPaths.one(unknown), as(ada))).statusCode).toBe(404);
    const put = await t.request('PUT', clinicReviewPaths.one(unknown), as(ada, answerOf([])));
    expect(put.statusCode).toBe(404);
    // A deactivated member's review is gone from the practice too.
    const alice = await factory.loggedInMember();
    const id = await asked(alice, { photos: [(await factory.oralPhoto(alice)).id], question });
    await t.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, alice.id));
    const late = await t.request('PUT', clinicReviewPaths.one(id), as(ada, answerOf([])));
    expect(late.statusCode).toBe(404);
  });

  it('refuses findings that do not fit the images with the fields, changing nothing', async () => {
    const ada = await staffFactory.loggedInStaff('practitioner');
    const alice = await goldMember();
    const id = await asked(alice, { dental_ai: await dentalAiResult(alice), question });
    const cases: [ReviewAnswer['findings'], string][] = [
      [[{ ...added, box: [40, 5, 65, 20] }], 'findings.0.box'],
      [[{ ...confirmed, ai_box: 2 }], 'findings.0.ai_box'],
      [[confirmed, { ...rejected, ai_box: 0 }], 'findings.1.ai_box'],
      [[{ ...added, ai_box: 1 }], 'findings.0.ai_box'],
      [[{ ...confirmed, photo: crypto.randomUUID() }], 'findings.0.photo'],
    ];
    for (const [findings, field] of cases) {
      const res = await t.request('PUT', clinicReviewPaths.one(id), as(ada, answerOf(findings)));
      expect(res.statusCode, field).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toEqual([field]);
    }
    const [row] = await t.db.select().from(photoReviews).where(eq(photoReviews.id, id));
    expect(row).toMatchObject({ status: 'waiting', report: null, findings: null });
  });

  it('answers once; the member reads the report, the findings and who answered', async () => {
    const ada = await staffFactory.loggedInStaff('practitioner');
    const alice = await goldMember();
    const id = await asked(alice, { dental_ai: await dentalAiResult(alice), question });
    const admin = await staffFactory.loggedInStaff('clinic_admin');
    const byAdmin = await t.request(
      'PUT',
      clinicReviewPaths.one(id),
      as(admin, answerOf(goodFindings)),
    );
    expect(byAdmin.statusCode).toBe(403);
    const res = await t.request('PUT', clinicReviewPaths.one(id), as(ada, answerOf(goodFindings)));
    expect(res.statusCode, res.body).toBe(200);
    const again = await t.request('PUT', clinicReviewPaths.one(id), as(ada, answerOf([])));
    expect(again.statusCode).toBe(409);

    const mine = review.parse((await t.request('GET', reviewPaths.one(id), as(alice))).json());
    expect(mine).toMatchObject({
      status: 'answered',
      report: answerOf([]).report,
      findings: goodFindings,
      reviewer: { name: ada.username },
    });
    expect(mine.answered_at).not.toBeNull();
    const answered = clinicReviewList.parse(
      (await t.request('GET', `${clinicReviewPaths.list}?status=answered`, as(ada))).json(),
    );
    expect(answered.results.map((row) => row.id)).toContain(id);
  });
});

describe('the answer’s notice', () => {
  it('is sent once, through the job queue, and says only that a dentist answered', async () => {
    const api = await withJobQueue(t);
    try {
      const ada = await staffFactory.loggedInStaff('practitioner');
      const alice = await goldMember();
      const id = await asked(alice, { dental_ai: await dentalAiResult(alice), question });
      const res = await api.app.inject({
        method: 'PUT',
        url: clinicReviewPaths.one(id),
        headers: { authorization: `Bearer ${ada.tokens.access}` },
        payload: answerOf(goodFindings),
      });
      expect(res.statusCode, res.body).toBe(200);
      const mail = await smtp.waitForMessageTo(alice.email, new RegExp(reviewAnsweredSubject));
      const everything = `${mail.subject ?? ''}\n${mail.text ?? ''}\n${String(mail.html)}`;
      expect(everything).toContain(`http://app.test/reviews/${id}`);
      for (const secret of [question, answerOf([]).report, 'Cavity', ada.username]) {
        expect(everything).not.toContain(secret);
      }
      await vi.waitFor(async () => {
        const notices = await t.db
          .select({ status: messageNotices.status })
          .from(messageNotices)
          .where(eq(messageNotices.reviewId, id));
        expect(notices).toEqual([{ status: 'sent' }]);
      });
      // A job delivered again (a worker that outlived its attempt) finds the notice sent.
      const [notice] = await t.db
        .select({ id: messageNotices.id })
        .from(messageNotices)
        .where(eq(messageNotices.reviewId, id));
      await api.services.messageNotices.deliver(notice?.id ?? '', false);
      await api.services.messageNotices.sweep();
      const toAlice = smtp.messages.filter((message) =>
        [message.to ?? []]
          .flat()
          .some((to) => to.value.some((entry) => entry.address === alice.email.toLowerCase())),
      );
      expect(toAlice.filter((message) => message.subject === reviewAnsweredSubject)).toHaveLength(
        1,
      );
    } finally {
      await api.close();
    }
  });
});
