import type { StaffProfile, StaffRepository } from './staff.repository';

/** Staff accounts: who they are on each request (docs/decisions/clinic-staff.md). */
export class StaffService {
  constructor(private readonly repository: StaffRepository) {}

  profile(userId: string): Promise<StaffProfile | undefined> {
    return this.repository.profile(userId);
  }
}
