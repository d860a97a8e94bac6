import type { AuthRepository } from '../auth/auth.repository';
import { hashOpaqueToken } from '../auth/token.service';
import type { AuditLookups, ShareLinkSubject } from './audit-declarations';
import type { AuditRepository, FileSubject } from './audit.repository';

/** Names the member of a request without a bearer token, the way the route itself proves it. */
export class RepositoryAuditLookups implements AuditLookups {
  constructor(
    private readonly accounts: AuthRepository,
    private readonly audit: AuditRepository,
    /** The second factor's challenges belong to the auth module (wired in services.ts). */
    readonly memberByMfaToken: (token: string) => Promise<string | null>,
    /** Share links belong to the share-links module (wired in services.ts). */
    readonly shareLinkByToken: (token: string) => Promise<ShareLinkSubject | null>,
  ) {}

  async memberByEmail(email: string): Promise<string | null> {
    return (await this.accounts.findUserByEmail(email))?.id ?? null;
  }

  async memberByRefreshToken(token: string): Promise<string | null> {
    return (await this.accounts.findRefreshToken(hashOpaqueToken(token)))?.userId ?? null;
  }

  async memberByResetKey(key: string): Promise<string | null> {
    return (await this.accounts.findPasswordResetKey(hashOpaqueToken(key)))?.userId ?? null;
  }

  fileByKey(key: string): Promise<FileSubject | undefined> {
    return this.audit.fileByKey(key);
  }
}
