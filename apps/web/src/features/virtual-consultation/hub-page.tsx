import { Stack, Title } from '@mantine/core';
import { IconCalendarPlus, IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { usePublicConfig } from '#web/lib/public-config';
import classes from './hub-page.module.css';

/** Virtual Consultation hub (docs/product/consultation.md#hub): Reservation opens the external
 *  reservation page when the server names one, otherwise our own booking page; Reservation Record
 *  opens the history. */
export default function VirtualConsultationHubPage() {
  useDocumentTitle('Virtual Consultation');
  const config = usePublicConfig();
  if (config.isPending) return <PageSpinner />;
  const externalUrl = config.data?.reservation_url;
  return (
    <Stack gap="lg">
      <Title order={1}>Virtual Consultation</Title>
      <ul className={classes.tiles} aria-label="Virtual Consultation">
        <li>
          {externalUrl === undefined ? (
            <Link to={paths.consultationBooking} className={classes.tile}>
              <IconCalendarPlus size={40} aria-hidden />
              Reservation
            </Link>
          ) : (
            <a
              href={externalUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={classes.tile}
            >
              <IconCalendarPlus size={40} aria-hidden />
              Reservation
            </a>
          )}
        </li>
        <li>
          <Link to={paths.reservationRecord} className={classes.tile}>
            <IconHistory size={40} aria-hidden />
            Reservation Record
          </Link>
        </li>
      </ul>
    </Stack>
  );
}
