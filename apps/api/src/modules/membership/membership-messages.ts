import { membershipSalesFinal, plans, type PlanName } from '@dental/contracts';
import type { MailMessage } from '#api/adapters/mailer';
import { htmlParagraphs } from '#api/lib/html';
import { formatUsd } from '#api/lib/money';

const longDate = (at: Date) =>
  at.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

export interface MailContext {
  publicUrl: string;
  companyName: string;
}

function message(to: string, subject: string, lines: string[]): MailMessage {
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n`,
    html: htmlParagraphs(lines),
  };
}

export interface Receipt {
  receiptNumber: string;
  /** The member who paid. */
  userId: string;
  email: string;
  username: string;
  paymentId: string;
  plan: PlanName;
  amountCents: number;
  paidAt: Date;
  expiresAt: Date;
}

/** The receipt of a completed payment; all sales are final
 *  (docs/product/membership.md#membership-terms). */
export function receiptMail(receipt: Receipt, context: MailContext): MailMessage {
  const plan = plans[receipt.plan];
  return message(receipt.email, `Your ${plan.name} membership receipt`, [
    `Hello ${receipt.username},`,
    `Thank you for your payment. You are now a ${plan.name} member of ${context.companyName}.`,
    `Amount paid: ${formatUsd(receipt.amountCents)} (USD), on ${longDate(receipt.paidAt)}.`,
    `Receipt number: ${receipt.receiptNumber}`,
    `Sign-up bonus: ${plan.signUpBonusPoints.toLocaleString('en-US')} points, which expire at the end of this year.`,
    `Your membership is valid until ${longDate(receipt.expiresAt)}.`,
    membershipSalesFinal,
    `Your receipts, to download as PDF: ${context.publicUrl}/account/receipts`,
    `Your membership: ${context.publicUrl}/membership`,
  ]);
}

/** Sent 14 days before a paid membership ends. */
export function expiryReminderMail(
  member: { email: string; username: string; plan: PlanName; expiresAt: Date },
  context: MailContext,
): MailMessage {
  return message(
    member.email,
    `Your ${member.plan} membership ends on ${longDate(member.expiresAt)}`,
    [
      `Hello ${member.username},`,
      `Your ${member.plan} membership of ${context.companyName} ends on ${longDate(member.expiresAt)}. After that your account returns to the free Silver plan.`,
      `To keep your ${member.plan} benefits, choose a plan again: ${context.publicUrl}/membership`,
    ],
  );
}
