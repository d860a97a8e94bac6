import { plans } from '@dental/contracts';
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
  /** Members' topics carry a lock style; the lock is not enforced
   *  (docs/decisions/topic-card-lock.md). */
  locked: boolean;
  /** On a locked card, what the plan changes, from the plan table (docs/decisions/
   *  topic-card-lock.md). */
  lockNote?: string;
}

const { Silver } = plans;
const sharedStorageNote = `Silver: ${Silver.storageLabel} of storage for X-rays and records`;

/** The seven topic cards of the home screen (docs/product/general.md#topic-cards), in their
 *  order. */
export const topicCards = [
  {
    key: 'oral-photo',
    name: 'X-rays and Photos Storage',
    image: oralPhotoImage,
    location: paths.oralPhotos,
    locked: true,
    lockNote: sharedStorageNote,
  },
  {
    key: 'dental-ai',
    name: 'Dental AI',
    image: dentalAiImage,
    location: paths.dentalAi,
    locked: true,
    lockNote: `Silver: ${String(Silver.dentalAiUsesPerYear)} Dental AI uses a year`,
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
    lockNote: sharedStorageNote,
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
    lockNote: 'Included in every plan',
  },
] as const satisfies readonly TopicCard[];

/** docs/product/general.md#topic-cards: a card whose location starts with http:// or https:// is an
 *  external link (schemes are case-insensitive, as in browsers). */
export function isExternalLocation(location: string): boolean {
  return /^https?:\/\//i.test(location);
}
