import type { Plan } from '@dental/contracts';
import { paths } from '#web/config/paths';
import appointmentsImage from '#web/assets/topics/appointments.svg';
import dentalAiImage from '#web/assets/topics/dental-ai.svg';
import dentalKnowledgeImage from '#web/assets/topics/dental-knowledge.svg';
import medicalRecordsImage from '#web/assets/topics/medical-records.svg';
import oralPhotoImage from '#web/assets/topics/oral-photo.svg';
import oralSupplierImage from '#web/assets/topics/oral-supplier.svg';
import virtualConsultationImage from '#web/assets/topics/virtual-consultation.svg';

export interface TopicCard {
  key: string;
  /** Spelled exactly as docs/product/general.md#topic-cards writes it, odd spellings included. */
  name: string;
  image: string;
  /** An app path, or an http(s) address that opens as an external link. */
  location: string;
  /** SPEC's lock flag: members' topics. The lock is not enforced, and its style shows only where
   *  a paid plan gives more than the member's (docs/decisions/topic-card-lock.md). */
  locked: boolean;
  /** On a locked topic, what the member's plan gives there, from the plan table; `limited` when
   *  a paid plan gives more of it. */
  planNote?: { text: (plan: Plan) => string; limited: boolean };
}

const storageNote = {
  text: (plan: Plan) => `${plan.name}: ${plan.storageLabel} of storage for X-rays and records`,
  limited: true,
};

/** Whether a topic shows the lock: only where the member is on the free plan and a paid one
 *  gives more; never on what every plan includes, nor on what the member's plan has in full. */
export function showsLock(card: TopicCard, plan: Plan): boolean {
  return card.locked && card.planNote?.limited === true && plan.priceCents === 0;
}

/** The seven topic cards of the home screen (docs/product/general.md#topic-cards), in their
 *  order. */
export const topicCards = [
  {
    key: 'oral-photo',
    name: 'X-rays and Photos Storage',
    image: oralPhotoImage,
    location: paths.oralPhotos,
    locked: true,
    planNote: storageNote,
  },
  {
    key: 'dental-ai',
    name: 'Dental AI',
    image: dentalAiImage,
    location: paths.dentalAi,
    locked: true,
    planNote: {
      text: (plan: Plan) =>
        `${plan.name}: ${String(plan.dentalAiUsesPerYear)} Dental AI uses a year`,
      limited: true,
    },
  },
  {
    key: 'dental-knowledge',
    name: 'Dental & Tx Knowledgement',
    image: dentalKnowledgeImage,
    location: paths.dentalKnowledge,
    locked: false,
  },
  {
    key: 'appointments',
    name: 'Appointments Remind & History',
    image: appointmentsImage,
    location: paths.appointments,
    locked: false,
  },
  {
    key: 'medical-records',
    name: 'Medical or Ins. Records Storage',
    image: medicalRecordsImage,
    location: paths.medicalRecords,
    locked: true,
    planNote: storageNote,
  },
  {
    key: 'oral-supplier',
    name: 'Oral Hyglene Suppliers Knowledgement',
    image: oralSupplierImage,
    location: paths.oralSuppliers,
    locked: false,
  },
  {
    key: 'virtual-consultation',
    name: 'Virtual Consultation',
    image: virtualConsultationImage,
    location: paths.virtualConsultation,
    locked: true,
    planNote: { text: () => 'Included in every plan', limited: false },
  },
] as const satisfies readonly TopicCard[];

/** docs/product/general.md#topic-cards: a card whose location starts with http:// or https:// is an
 *  external link (schemes are case-insensitive, as in browsers). */
export function isExternalLocation(location: string): boolean {
  return /^https?:\/\//i.test(location);
}
