import type { Database } from './db/client';
import { AccountRepository } from './modules/account/account.repository';
import { AppointmentRepository } from './modules/appointments/appointments.repository';
import { ReminderRepository } from './modules/appointments/reminders.repository';
import { CheckUpRecallRepository } from './modules/appointments/check-up-recall.repository';
import { AuditRepository } from './modules/audit/audit.repository';
import { CareTeamRepository } from './modules/care-team/care-team.repository';
import { AuthRepository } from './modules/auth/auth.repository';
import { LoginFailureRepository } from './modules/auth/login-failures.repository';
import { PasskeyRepository } from './modules/auth/passkeys/passkeys.repository';
import { SecondFactorRepository } from './modules/auth/second-factor.repository';
import { CalendarFeedRepository } from './modules/calendar/calendar-feed.repository';
import { ContentRepository } from './modules/content/content.repository';
import { DataExportRepository } from './modules/data-export/data-export.repository';
import { DataImportRepository } from './modules/data-import/data-import.repository';
import { ReportRepository } from './modules/reports/reports.repository';
import { DelegationRepository } from './modules/delegation/delegation.repository';
import { DentalAiRepository } from './modules/dental-ai/dental-ai.repository';
import { DentalKnowledgeRepository } from './modules/dental-knowledge/dental-knowledge.repository';
import { HomeRepository } from './modules/home/home.repository';
import { FilesRepository } from './modules/files/files.repository';
import { MedicalRecordRepository } from './modules/medical-records/medical-records.repository';
import { MessageNoticeRepository } from './modules/messages/message-notices.repository';
import { PushRepository } from './modules/push/push.repository';
import { MessageRepository } from './modules/messages/messages.repository';
import { MembershipRepository } from './modules/membership/membership.repository';
import { ReceiptsRepository } from './modules/receipts/receipts.repository';
import { ShopRepository } from './modules/shop/shop.repository';
import { OralPhotoRepository } from './modules/oral-photo/oral-photo.repository';
import { OralSupplierRepository } from './modules/oral-supplier/oral-supplier.repository';
import { ReviewRepository } from './modules/reviews/reviews.repository';
import { ShareLinkRepository } from './modules/share-links/share-links.repository';
import { StaffRepository } from './modules/clinic/staff.repository';
import { ClinicConsultationRepository } from './modules/clinic/consultations.repository';
import { PractitionerRepository } from './modules/clinic/practitioners.repository';
import { ClinicRepository } from './modules/virtual-consultation/clinic.repository';
import { ConsultationRepository } from './modules/virtual-consultation/virtual-consultation.repository';

/** Every repository over the database, each built once: the services (services.ts) share them,
 *  and the commands (cli/) and the server's start take theirs from here without loading every
 *  service. */
export function createRepositories(db: Database) {
  return {
    account: new AccountRepository(db),
    auth: new AuthRepository(db),
    loginFailures: new LoginFailureRepository(db),
    secondFactor: new SecondFactorRepository(db),
    passkeys: new PasskeyRepository(db),
    audit: new AuditRepository(db),
    files: new FilesRepository(db),
    membership: new MembershipRepository(db),
    receipts: new ReceiptsRepository(db),
    content: new ContentRepository(db),
    calendarFeeds: new CalendarFeedRepository(db),
    appointments: new AppointmentRepository(db),
    reminders: new ReminderRepository(db),
    checkUpRecalls: new CheckUpRecallRepository(db),
    consultations: new ConsultationRepository(db),
    clinic: new ClinicRepository(db),
    practitioners: new PractitionerRepository(db),
    clinicConsultations: new ClinicConsultationRepository(db),
    dataExports: new DataExportRepository(db),
    dataImports: new DataImportRepository(db),
    reports: new ReportRepository(db),
    oralPhotos: new OralPhotoRepository(db),
    home: new HomeRepository(db),
    medicalRecords: new MedicalRecordRepository(db),
    shareLinks: new ShareLinkRepository(db),
    dentalAi: new DentalAiRepository(db),
    dentalKnowledge: new DentalKnowledgeRepository(db),
    oralSuppliers: new OralSupplierRepository(db),
    shop: new ShopRepository(db),
    delegations: new DelegationRepository(db),
    careTeam: new CareTeamRepository(db),
    messages: new MessageRepository(db),
    messageNotices: new MessageNoticeRepository(db),
    push: new PushRepository(db),
    staff: new StaffRepository(db),
    reviews: new ReviewRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
