import type { ReactNode } from 'react';
import { Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { IconCalendarEvent, IconClipboardText, IconPhoto, IconVideo } from '@tabler/icons-react';
import { homePaths, recentUploadDays, reservationTimeFormat, upNext } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { apiRequest } from '#web/lib/api-client';
import { photoLabel } from '#web/lib/photo-label';
import classes from './up-next-strip.module.css';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The appointment cards' date and time formats (docs/product/general.md#dates-and-times). */
const appointmentFormat = 'MM-DD-YYYY ddd hh:mm A';

function StripLink({
  to,
  icon,
  label,
  children,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  children: ReactNode;
}) {
  return (
    <li>
      <Link to={to} className={classes.item}>
        {icon}
        <span className={classes.text}>
          <Text component="span" fw={600} display="block">
            {label}
          </Text>
          <Text component="span" size="sm" display="block">
            {children}
          </Text>
        </span>
      </Link>
    </li>
  );
}

/** Home's strip of what is next (docs/decisions/home-up-next.md): each of the four shows only
 *  when it has something, and with nothing at all (a new member) there is no strip. */
export function UpNextStrip() {
  const answer = useQuery({
    queryKey: ['home', 'up-next'],
    queryFn: () => apiRequest(homePaths.upNext, upNext),
  });
  if (answer.data === undefined) return null;
  const { next_appointment, next_consultation, new_summary, recent_uploads } = answer.data;
  if (!next_appointment && !next_consultation && !new_summary && !recent_uploads) return null;
  const icon = { size: 28, 'aria-hidden': true, className: classes.icon } as const;
  return (
    <section aria-labelledby="up-next-heading">
      <Title order={2} size="h4" id="up-next-heading" mb="xs">
        What’s next
      </Title>
      <ul className={classes.strip}>
        {next_appointment && (
          <StripLink
            to={paths.appointments}
            icon={<IconCalendarEvent {...icon} />}
            label="Next appointment"
          >
            {dayjs(next_appointment.appointment_date).format(appointmentFormat)}
          </StripLink>
        )}
        {next_consultation && (
          <StripLink
            to={paths.reservationRecord}
            icon={<IconVideo {...icon} />}
            label="Next consultation"
          >
            {dayjs(next_consultation.reservation_time)
              .tz(next_consultation.timezone)
              .format(reservationTimeFormat)}{' '}
            with {next_consultation.doctor_name}
          </StripLink>
        )}
        {new_summary && (
          <StripLink
            to={`${paths.reservationRecord}?summary=${new_summary.reservation_id}`}
            icon={<IconClipboardText {...icon} />}
            label="New doctor’s summary"
          >
            From {new_summary.doctor_name}, consultation of{' '}
            {dayjs(new_summary.reservation_time)
              .tz(new_summary.timezone)
              .format(reservationTimeFormat)}
          </StripLink>
        )}
        {recent_uploads && (
          <StripLink
            to={paths.oralPhotoEdit(recent_uploads.latest.id)}
            icon={<IconPhoto {...icon} />}
            label="Recent uploads"
          >
            {recent_uploads.count} added in the last {recentUploadDays} days; latest:{' '}
            {photoLabel(recent_uploads.latest)}
          </StripLink>
        )}
      </ul>
    </section>
  );
}
