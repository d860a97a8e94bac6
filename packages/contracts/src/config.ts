import { z } from 'zod';
import { socialProvider } from './account';

export const configPath = '/api/config/';

/** What the web app reads from the server at start: the footer, the service e-mail, and which
 *  social sign-in providers are configured (none until a later issue wires them). */
export const publicConfig = z.object({
  company_name: z.string(),
  customer_service_email: z.string(),
  social_providers: z.array(socialProvider),
  /** An external reservation page for the Virtual Consultation hub
   *  (docs/product/consultation.md#hub); absent means the app's own booking page. */
  reservation_url: z.url().optional(),
  /** Where booked virtual consultations take place; absent means the doctor phones the member
   *  (docs/decisions/calendar-export.md). */
  consultation_join_url: z.url().optional(),
});
export type PublicConfig = z.infer<typeof publicConfig>;
