import type { ReactNode } from 'react';
import { Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconCalendarEvent, IconClipboardText, IconPhotoUp, IconVideo } from '@tabler/icons-react';
import { homePaths, recentUploadDays, upNext } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { apiRequest } from '#web/lib/api-client';
import { photoLabel } from '#web/lib/photo-label';
import classes from './up-next-strip.module.css';

/** The parts of an instant in a zone (the browser's when none is given). Intl, not dayjs's zone
 *  plugin: Home sharing that chunk would add it to the entry's preload list, which /login loads. */
function partsOf(instant: string, timeZone?: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    weekday: part('weekday'),
    hour: Number(part('hour')),
    minute: part('minute'),
  };
}

/** As on the appointment cards, 'MM-DD-YYYY ddd hh:mm A' (docs/product/general.md#dates-and-times). */
function appointmentTime(instant: string): string {
  const { year, month, day, weekday, hour, minute } = partsOf(instant);
  const twelve = String(hour % 12 === 0 ? 12 : hour % 12).padStart(2, '0');
  return `${month}-${day}-${year} ${weekday} ${twelve}:${minute} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** As on the reservation cards, 'YYYY-MM-DD HH:mm' in the reservation's zone. */
function reservationTime(instant: string, timeZone: string): string {
  const { year, month, day, hour, minute } = partsOf(instant, timeZone);
  return `${year}-${month}-${day} ${String(hour).padStart(2, '0')}:${minute}`;
}

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
            {appointmentTime(next_appointment.appointment_date)}
          </StripLink>
        )}
        {next_consultation && (
          <StripLink
            to={paths.reservationRecord}
            icon={<IconVideo {...icon} />}
            label="Next consultation"
          >
            {reservationTime(next_consultation.reservation_time, next_consultation.timezone)} with{' '}
            {next_consultation.doctor_name}
          </StripLink>
        )}
        {new_summary && (
          <StripLink
            to={`${paths.reservationRecord}?summary=${new_summary.reservation_id}`}
            icon={<IconClipboardText {...icon} />}
            label="New doctor’s summary"
          >
            From {new_summary.doctor_name}, consultation of{' '}
            {reservationTime(new_summary.reservation_time, new_summary.timezone)}
          </StripLink>
        )}
        {recent_uploads && (
          <StripLink
            to={paths.oralPhotoEdit(recent_uploads.latest.id)}
            icon={<IconPhotoUp {...icon} />}
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
