import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { systemClock, type Clock } from './clock';
import type { DatabaseOutage } from './db/database-outage';
import { socialTokenOrigins } from './config';
import { loggerOptions, type LogDestination } from './logger';
import { accountRoutes } from './modules/account/account.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { sessionRoutes } from './modules/auth/sessions.routes';
import { secondFactorRoutes } from './modules/auth/second-factor.routes';
import { passkeyRoutes } from './modules/auth/passkeys/passkeys.routes';
import { auditPlugin } from './modules/audit/audit.plugin';
import { auditRoutes } from './modules/audit/audit.routes';
import { appointmentRoutes } from './modules/appointments/appointments.routes';
import { calendarRoutes } from './modules/calendar/calendar.routes';
import { careTeamRoutes } from './modules/care-team/care-team.routes';
import { clinicPatientRoutes } from './modules/care-team/clinic-patients.routes';
import { configRoutes } from './modules/config/config.routes';
import { contentRoutes } from './modules/content/content.routes';
import { delegationPlugin } from './modules/delegation/delegation.plugin';
import { delegationRoutes } from './modules/delegation/delegation.routes';
import { dataExportRoutes } from './modules/data-export/data-export.routes';
import { dataImportRoutes } from './modules/data-import/data-import.routes';
import { reportRoutes } from './modules/reports/reports.routes';
import { dentalAiRoutes } from './modules/dental-ai/dental-ai.routes';
import { dentalKnowledgeRoutes } from './modules/dental-knowledge/dental-knowledge.routes';
import { filesRoutes } from './modules/files/files.routes';
import { membershipRoutes } from './modules/membership/membership.routes';
import { receiptRoutes } from './modules/receipts/receipts.routes';
import { clinicMessageRoutes } from './modules/messages/clinic-messages.routes';
import { messageEventRoutes } from './modules/messages/message-events.routes';
import { messageRoutes } from './modules/messages/messages.routes';
import { medicalRecordRoutes } from './modules/medical-records/medical-records.routes';
import { oralPhotoRoutes } from './modules/oral-photo/oral-photo.routes';
import { homeRoutes } from './modules/home/home.routes';
import { oralSupplierRoutes } from './modules/oral-supplier/oral-supplier.routes';
import { shopRoutes } from './modules/shop/shop.routes';
import { shareLinkRoutes } from './modules/share-links/share-links.routes';
import { consultationRoutes } from './modules/virtual-consultation/virtual-consultation.routes';
import { staffAccountRoutes, staffGuardPlugin } from './modules/clinic/staff-guard.plugin';
import { staffRoutes } from './modules/clinic/staff.routes';
import { availabilityRoutes } from './modules/clinic/availability.routes';
import { clinicConsultationRoutes } from './modules/clinic/consultations.routes';
import { formRoutes } from './modules/clinic/form.routes';
import { practitionerRoutes } from './modules/clinic/practitioners.routes';
import { reviewRoutes } from './modules/reviews/reviews.routes';
import { pushRoutes } from './modules/push/push.routes';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, refuseConnect } from './plugins/client-errors';
import { errorsPlugin, frameworkErrorHandler } from './plugins/errors';
import { idempotencyPlugin } from './plugins/idempotency';
import { healthPlugin } from './plugins/health';
import { metricsPlugin } from './plugins/metrics';
import { openApiPlugin } from './plugins/openapi';
import { compressionPlugin } from './plugins/compression';
import { memberLogPlugin } from './plugins/member-log';
import { rateLimitPlugin } from './plugins/rate-limit';
import { uploadRateLimitPlugin } from './plugins/upload-rate-limit';
import { securityHeadersPlugin } from './plugins/security-headers';
import { staticSpaPlugin } from './plugins/static-spa';
import { createServices, registerJobs, type ServiceDeps, type Services } from './services';

/** Each readiness check gets this long: a probe must answer well within a balancer's timeout. */
const readinessTimeoutMs = 2_000;

export interface AppDeps extends ServiceDeps {
  clock?: Clock;
  /** Where log lines go; stdout when absent. */
  logStream?: LogDestination;
  /** Services built by the caller (tests share them with their factories). */
  services?: Services;
  /** The opened database's outage log, told of requests that failed for a lost connection. */
  databaseOutage?: DatabaseOutage;
}

/** Cross-cutting plugins first, then the feature modules; the caller decides when to listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.server.on('connect', refuseConnect(app.log));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const services = deps.services ?? createServices(deps, clock, app.log);
  app.addHook('onClose', () => services.passwordResets.drain());
  app.addHook('onClose', (_instance, done) => {
    services.blobs.close();
    done();
  });
  // Model files are read before the first request, so a broken one stops the start.
  app.addHook('onReady', async () => {
    const models = await services.detector.load();
    app.log.info({ models }, 'Dental AI models loaded');
  });
  // The inference threads would otherwise keep the process alive after the app closes.
  app.addHook('onClose', () => services.detector.close());
  // The DICOM threads end with the app rather than a minute after their last file.
  app.addHook('onClose', () => services.uploads.close());
  // The first admin's invitation (docs/decisions/clinic-staff.md); once, whatever the restarts.
  const { clinicAdminEmail } = config;
  if (clinicAdminEmail !== undefined) {
    app.addHook('onReady', async () => {
      const outcome = await services.staff.inviteFirstAdmin(clinicAdminEmail);
      if (outcome === 'address has account') {
        app.log.warn(
          'CLINIC_ADMIN_EMAIL already has an account: a staff account needs an address of its own',
        );
      } else if (outcome === 'invited') {
        app.log.info('the first clinic administrator was invited by e-mail');
      }
    });
  }
  // The job queue is started by the caller (server.ts, worker.ts); its workers start with the app.
  const { jobs } = deps;
  if (jobs !== undefined) {
    app.addHook('onReady', () => registerJobs(jobs, services));
  }
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin, { databaseOutage: deps.databaseOutage });
  await app.register(metricsPlugin, {
    metrics: services.metrics,
    token: config.metrics.token,
    port: config.metrics.port,
    host: config.host,
  });
  await app.register(securityHeadersPlugin, {
    connectOrigins: socialTokenOrigins(config.social),
  });
  // Before any route: it adds its hook to each route as the route is registered.
  await app.register(compressionPlugin);
  await app.register(openApiPlugin, { companyName: config.companyName });
  await app.register(authPlugin, {
    verifyAccessToken: (token) => services.tokens.verifyAccessToken(token),
    findActiveSession: (claims) => services.sessions.findActiveSession(claims),
    assertRecentlyAuthenticated: (user) => {
      services.sessions.assertRecentlyAuthenticated(user);
    },
    staffMayUse: staffAccountRoutes,
  });
  await app.register(staffGuardPlugin, {
    verifyAccessToken: (token) => services.tokens.verifyAccessToken(token),
    findActiveSession: (claims) => services.sessions.findActiveSession(claims),
    profile: (userId) => services.staff.profile(userId),
  });
  await app.register(rateLimitPlugin, {
    db,
    clock,
    limits: config.rateLimit,
    loginGuesses: services.guessLock,
  });
  await app.register(uploadRateLimitPlugin, {
    db,
    clock,
    perMinute: config.uploadsPerMinute,
  });
  await app.register(idempotencyPlugin, { db, clock });
  // Before the feature routes: these mark the authenticated and audited ones as they are registered.
  await app.register(memberLogPlugin);
  await app.register(auditPlugin, { audit: services.audit, lookups: services.auditLookups });
  // After the audit plugin, before the feature routes: whose record a `?member=` read is for.
  await app.register(delegationPlugin, {
    mayRead: (ownerId, delegateId) => services.delegations.mayRead(ownerId, delegateId),
  });

  // Content files are loaded before any route answers, so the API reads only the database.
  const loaded = await services.contentLoader.load(config.contentDir);
  app.log.info({ ...loaded, contentDir: config.contentDir }, 'content loaded');

  await app.register(healthPlugin, {
    timeoutMs: readinessTimeoutMs,
    checks: {
      database: async () => {
        await db.execute(sql`select 1`);
      },
      blobStore: () => services.blobs.ping(),
      ...(jobs === undefined ? {} : { jobQueue: () => jobs.ping() }),
      models: () => services.detector.ping(),
    },
  });
  await app.register(authRoutes, services);
  await app.register(accountRoutes, services);
  await app.register(sessionRoutes, services);
  await app.register(pushRoutes, services);
  await app.register(secondFactorRoutes, services);
  await app.register(passkeyRoutes, services);
  await app.register(auditRoutes, services);
  await app.register(configRoutes, config);
  await app.register(filesRoutes, {
    blobs: services.blobs,
    links: services.links,
    ownerIsActive: (key) => services.files.ownerIsActive(key),
    downloaded: (key) => services.reports.downloaded(key),
  });
  await app.register(oralPhotoRoutes, services);
  await app.register(medicalRecordRoutes, services);
  await app.register(shareLinkRoutes, services);
  await app.register(contentRoutes, services);
  await app.register(dentalKnowledgeRoutes, services);
  await app.register(oralSupplierRoutes, services);
  await app.register(consultationRoutes, services);
  await app.register(appointmentRoutes, services);
  await app.register(homeRoutes, services);
  await app.register(calendarRoutes, services);
  await app.register(membershipRoutes, services);
  await app.register(receiptRoutes, services);
  await app.register(shopRoutes, services);
  await app.register(dentalAiRoutes, services);
  await app.register(dataExportRoutes, services);
  await app.register(dataImportRoutes, services);
  await app.register(reportRoutes, services);
  await app.register(delegationRoutes, services);
  await app.register(staffRoutes, services);
  await app.register(practitionerRoutes, services);
  await app.register(availabilityRoutes, services);
  await app.register(formRoutes, services);
  await app.register(clinicConsultationRoutes, services);
  await app.register(careTeamRoutes, services);
  await app.register(clinicPatientRoutes, services);
  await app.register(messageRoutes, services);
  await app.register(clinicMessageRoutes, services);
  await app.register(messageEventRoutes, {
    messageEvents: services.messageEvents,
    eventTickets: services.eventTickets,
    unread: {
      member: async (memberId) => (await services.messages.unread(memberId)).unread,
      staff: async () => (await services.messages.staffUnread()).unread,
    },
    isActiveStaff: services.staffIsActive,
  });
  await app.register(reviewRoutes, services);
  await app.register(staticSpaPlugin, { webDist: config.webDist });
  return app;
}
