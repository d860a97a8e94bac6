import { z } from 'zod';
import { optional } from './fields';

/** The clinic console's start (docs/decisions/clinic-staff.md). */
export const clinicEnv = z.object({
  CLINIC_ADMIN_EMAIL: optional(z.email('CLINIC_ADMIN_EMAIL must be an e-mail address.')),
});

export interface ClinicSection {
  /** While no clinic administrator exists, the server invites this address at start. */
  clinicAdminEmail: string | undefined;
}

export function parseClinic(vars: z.infer<typeof clinicEnv>): ClinicSection {
  return { clinicAdminEmail: vars.CLINIC_ADMIN_EMAIL };
}
