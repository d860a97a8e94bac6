import { z } from 'zod';
import {
  consultationEnv,
  parseConsultation,
  type ConsultationSection,
} from './config/consultation';
import { dentalAiEnv, parseDentalAi, type DentalAiSection } from './config/dental-ai';
import { clinicEnv, parseClinic, type ClinicSection } from './config/clinic';
import { ConfigError } from './config/fields';
import {
  identityProvidersEnv,
  parseIdentityProviders,
  type IdentityProvidersSection,
} from './config/identity-providers';
import { jobsEnv, parseJobs, type JobsSection } from './config/jobs';
import { mailSmsEnv, parseMailSms, type MailSmsSection } from './config/mail-sms';
import { operationsEnv, parseOperations, type OperationsSection } from './config/operations';
import { parsePayments, paymentsEnv, type PaymentsSection } from './config/payments';
import {
  parsePush,
  pushEnv,
  resolveVapidKeys,
  type PushSection,
  type VapidKeys,
} from './config/push';
import { parseRateLimits, rateLimitsEnv, type RateLimitsSection } from './config/rate-limits';
import { resolveTokenSecret, secretsEnv } from './config/secrets';
import { parseServer, serverEnv, type ServerSection } from './config/server';
import { parseSessions, sessionsEnv, type SessionsSection } from './config/sessions';
import { parseStorage, storageEnv, type StorageSection } from './config/storage';
import { DataDirError, protectDataDir } from './db/data-dir';

// Every environment variable, parsed once at start; each concern's variables, defaults and rules
// live in its own file under config/ (docs/decisions/configuration-by-concern.md).
export { ConfigError } from './config/fields';
export type { DentalAiSettings, ModelSlot } from './config/dental-ai';
export { socialTokenOrigins, type SocialSettings } from './config/identity-providers';
export type { TwilioSettings } from './config/mail-sms';
export type { LogLevel } from './config/operations';
export type { StripeSettings } from './config/payments';
export type { VapidKeys } from './config/push';
export type { RateLimitConfig } from './config/rate-limits';
export { fileLinkSecret, messageEventTicketSecret, totpSecretKey } from './config/secrets';
export type { SessionTimeouts } from './config/sessions';

const envSchema = z.object({
  ...serverEnv.shape,
  ...operationsEnv.shape,
  ...storageEnv.shape,
  ...secretsEnv.shape,
  ...mailSmsEnv.shape,
  ...rateLimitsEnv.shape,
  ...sessionsEnv.shape,
  ...jobsEnv.shape,
  ...consultationEnv.shape,
  ...paymentsEnv.shape,
  ...identityProvidersEnv.shape,
  ...dentalAiEnv.shape,
  ...clinicEnv.shape,
  ...pushEnv.shape,
});

export type Env = Record<string, string | undefined>;

export interface Config
  extends
    ServerSection,
    OperationsSection,
    StorageSection,
    MailSmsSection,
    RateLimitsSection,
    SessionsSection,
    JobsSection,
    ConsultationSection,
    PaymentsSection,
    IdentityProvidersSection,
    DentalAiSection,
    ClinicSection,
    PushSection {
  tokenSecret: string;
  vapidKeys: VapidKeys;
}

/** Configuration before the token secret and the VAPID keys are resolved from DATA_DIR. */
export type Settings = Omit<Config, 'tokenSecret' | 'vapidKeys'> & {
  tokenSecret: string | undefined;
};

/** Parses the environment without touching the disk. */
export function parseEnv(env: Env): Settings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return `  ${name}: ${issue.message} (got ${JSON.stringify(env[name])})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const vars = parsed.data;
  const server = parseServer(vars);
  // The rules that tie several variables together run in this order, so the first one broken is
  // the one reported.
  const payments = parsePayments(vars, server.publicUrl);
  const storage = parseStorage(vars);
  const mailSms = parseMailSms(vars, server.companyName);
  const operations = parseOperations(vars, server.port);
  const identityProviders = parseIdentityProviders(vars);
  return {
    ...server,
    ...operations,
    ...storage,
    tokenSecret: vars.TOKEN_SECRET,
    ...mailSms,
    ...parseRateLimits(vars),
    ...parseSessions(vars),
    ...parseJobs(vars),
    ...parseConsultation(vars),
    ...payments,
    ...identityProviders,
    ...parseDentalAi(vars),
    ...parseClinic(vars),
    ...parsePush(vars, server.customerServiceEmail),
  };
}

/** Reads every setting once, creates DATA_DIR (owner-only) and resolves the token secret and the
 *  VAPID keys; throws ConfigError. */
export function loadConfig(env: Env): Config {
  const settings = parseEnv(env);
  try {
    protectDataDir(settings.dataDir);
  } catch (error) {
    throw error instanceof DataDirError ? new ConfigError(error.message) : error;
  }
  return {
    ...settings,
    tokenSecret: resolveTokenSecret(settings.dataDir, settings.tokenSecret),
    vapidKeys: resolveVapidKeys(settings.dataDir, settings.push.keys),
  };
}
