import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '#web/config/paths';
import { useSwitchRecord } from './api/delegation';

/** The screens that show the viewed record: photos and X-rays, records, appointments, Dental AI. */
const healthScreens = [paths.oralPhotos, paths.medicalRecords, paths.appointments, paths.dentalAi];

export const isHealthScreen = (pathname: string) =>
  healthScreens.some((screen) => pathname === screen || pathname.startsWith(`${screen}/`));

/** Switches to a record shared with the member and, from anywhere but a health screen, takes them
 *  to its photos and X-rays: switching on Profile used to change only the header's choice and
 *  leave them on their own page (docs/product/proxy-access.md). */
export function useOpenRecord() {
  const switchRecord = useSwitchRecord();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (owner: { id: string; username: string }) => {
      switchRecord(owner);
      if (!isHealthScreen(pathname)) void navigate(paths.oralPhotos);
    },
    [switchRecord, navigate, pathname],
  );
}
