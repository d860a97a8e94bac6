import { eq } from 'drizzle-orm';
import { users } from '#api/db/schema';
import type { Services } from '#api/services';
import type { TestApp } from '../build-test-app';
import { factories, type TestMember } from '../factories';
import type { TestStaff } from '../staff';

/** What the member asks and the dentist answers: the health details no notice may carry. */
export const reviewQuestion = 'Is this dark spot on my molar a cavity?';
export const reviewReport = 'An early cavity on the lower molar; come in for a filling.';

/**
 * A review of a photo of the member's (a new member if none), on the Gold plan (room for
 * reviews), that `staff` answered through `services`: the answer writes its notices and queues
 * them as the API does.
 */
export async function answeredReview(
  t: TestApp,
  services: Services,
  staff: TestStaff,
  member?: TestMember,
): Promise<{ member: TestMember; reviewId: string }> {
  const factory = factories(t);
  const asking = member ?? (await factory.member());
  await t.db.update(users).set({ customerLevel: 'Gold' }).where(eq(users.id, asking.id));
  const photo = await factory.oralPhoto(asking);
  const { id } = await services.reviews.ask(asking.id, {
    photos: [photo.id],
    question: reviewQuestion,
  });
  await services.reviews.answer({ id: staff.id, name: staff.username, role: staff.role }, id, {
    report: reviewReport,
    findings: [],
  });
  return { member: asking, reviewId: id };
}
