import path from 'node:path';
import { z } from 'zod';
import { httpUrl, optional, portNumber } from './fields';
import { repoRoot } from '../repo-root';

/** The HTTP server, the site it serves and the company it names. */
export const serverEnv = z.object({
  HOST: optional(z.string()),
  PORT: optional(portNumber('PORT', 0)),
  PUBLIC_URL: optional(httpUrl('PUBLIC_URL')),
  COMPANY_NAME: optional(z.string()),
  CUSTOMER_SERVICE_EMAIL: optional(z.email('CUSTOMER_SERVICE_EMAIL must be an e-mail address.')),
  WEB_DIST: optional(z.string()),
  CONTENT_DIR: optional(z.string()),
  TRUST_PROXY: optional(z.string()),
});

export interface ServerSection {
  host: string;
  port: number;
  /** Origin the browser uses, for links in e-mails; no trailing slash. */
  publicUrl: string;
  companyName: string;
  customerServiceEmail: string;
  webDist: string;
  /** Knowledge articles and supplier pages (markdown and covers), loaded into the database at
   *  start (docs/decisions/content-loading.md). */
  contentDir: string;
  trustProxy: boolean | string;
}

export function parseServer(vars: z.infer<typeof serverEnv>): ServerSection {
  const host = vars.HOST ?? 'localhost';
  const port = vars.PORT ?? 3000;
  return {
    host,
    port,
    publicUrl: (vars.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    companyName: vars.COMPANY_NAME ?? 'Dental Companion',
    customerServiceEmail: vars.CUSTOMER_SERVICE_EMAIL ?? 'support@dentalcompanion.example',
    webDist: path.resolve(vars.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    contentDir: path.resolve(vars.CONTENT_DIR ?? path.join(repoRoot, 'content')),
    trustProxy: parseTrustProxy(vars.TRUST_PROXY),
  };
}

/** `true`/`false`, or a comma-separated list of trusted proxy addresses or CIDR ranges. */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}
