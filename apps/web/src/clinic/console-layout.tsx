import { Anchor, Badge, Button, Container, Group, Text } from '@mantine/core';
import { NavLink, Outlet } from 'react-router';
import { Banner } from '#web/components/banner';
import { logout } from '#web/lib/tab-session';
import { useLiveMessages } from '#web/lib/message-events';
import { usePublicConfig } from '#web/lib/public-config';
import { clinicMessageStream, useClinicUnread } from './api/clinic-api';
import { useStaff } from './console-gate';
import { clinicPaths } from './paths';
import frame from '../app/app-layout.module.css';
import classes from './console-layout.module.css';

const roleNames = { practitioner: 'Practitioner', clinic_admin: 'Clinic administrator' } as const;

/** Messages in the navigation, with the members' messages no one at the practice has read. */
function MessagesLink() {
  const unread = useClinicUnread().data?.unread ?? 0;
  return (
    <Anchor
      component={NavLink}
      to={clinicPaths.messages}
      fw={600}
      aria-label={unread > 0 ? `Messages, ${String(unread)} unread` : undefined}
    >
      Messages
      {unread > 0 && (
        <Badge size="sm" ml={6}>
          {unread}
        </Badge>
      )}
    </Anchor>
  );
}

/** The frame of every signed-in console screen: banner, the console's sections, who is signed
 *  in and Log out. The staff event stream keeps every messages screen and the count live. */
export function ConsoleLayout() {
  const staff = useStaff();
  const config = usePublicConfig();
  useLiveMessages(clinicMessageStream);
  const links = [
    { to: clinicPaths.today, label: 'Today', end: true },
    { to: clinicPaths.history, label: 'History' },
    { to: clinicPaths.hours, label: 'Hours' },
    { to: clinicPaths.patients, label: 'Patients' },
  ];
  const adminLinks = [
    ...(staff.role === 'clinic_admin'
      ? [
          { to: clinicPaths.staff, label: 'Staff' },
          { to: clinicPaths.practitioners, label: 'Practitioners' },
          { to: clinicPaths.form, label: 'Consultation form' },
        ]
      : []),
  ];
  return (
    <div className={frame.shell}>
      <header className={frame.header}>
        <Container size="lg" className={frame.headerInner}>
          <div className={classes.brand}>
            <Banner />
            <Text fw={700}>Clinic console</Text>
          </div>
          <Group gap="sm" wrap="wrap">
            <Text size="sm">
              {staff.name === roleNames[staff.role]
                ? staff.name
                : `${staff.name} · ${roleNames[staff.role]}`}
            </Text>
            <Button size="xs" variant="default" onClick={() => void logout()}>
              Log out
            </Button>
          </Group>
        </Container>
        <Container size="lg">
          <nav aria-label="Console" className={`${frame.nav} ${classes.nav}`}>
            {links.map((link) => (
              <Anchor key={link.to} component={NavLink} to={link.to} end={link.end} fw={600}>
                {link.label}
              </Anchor>
            ))}
            <MessagesLink />
            <Anchor component={NavLink} to={clinicPaths.reviews} fw={600}>
              Reviews
            </Anchor>
            {adminLinks.map((link) => (
              <Anchor key={link.to} component={NavLink} to={link.to} fw={600}>
                {link.label}
              </Anchor>
            ))}
          </nav>
        </Container>
      </header>
      <Container component="main" size="lg" className={`${frame.main} ${classes.main}`}>
        <Outlet context={staff} />
      </Container>
      <footer className={frame.footer}>
        {config.data && (
          <Container size="lg">
            © {new Date().getFullYear()} {config.data.company_name}
          </Container>
        )}
      </footer>
    </div>
  );
}
