import { useState } from 'react';
import { Anchor, Button, Container } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { useAccount } from '../lib/account';
import { logout } from '../lib/tab-session';
import { usePublicConfig } from '../lib/public-config';
import { Banner } from '../components/banner';
import { OfflineReading } from '../components/load-failed';
import { paths } from '../config/paths';
import {
  RecordSwitcher,
  ViewedRecordBanner,
} from '../features/delegation/components/record-switcher';
import { EmailConfirmationBanner } from '../features/account/components/email-confirmation-banner';
import classes from './app-layout.module.css';

/** The frame of every signed-in screen: banner, home and account links, Log out, copyright
 *  footer. Log out sits in the frame so that every screen offers it, Home included. */
/** What a signed-in screen that failed to load offline offers instead (components/load-failed). */
const offlineReading = { to: paths.dentalKnowledge, label: 'Read dental knowledge' };

export default function AppLayout() {
  const account = useAccount();
  const config = usePublicConfig();
  const [loggingOut, setLoggingOut] = useState(false);
  return (
    <div className={classes.shell}>
      <header className={classes.header}>
        <Container size="lg" className={classes.headerInner}>
          <Banner />
          <div className={classes.actions}>
            <nav aria-label="Main" className={classes.nav}>
              <Anchor component={Link} to={paths.home} fw={600} underline="hover">
                Home
              </Anchor>
              {account.data && (
                <Anchor component={Link} to={paths.account} fw={600} underline="hover">
                  Hi, {account.data.username}
                </Anchor>
              )}
              {account.data && <RecordSwitcher />}
            </nav>
            <Button
              variant="outline"
              size="compact-md"
              loading={loggingOut}
              onClick={() => {
                setLoggingOut(true);
                void logout();
              }}
            >
              Log out
            </Button>
          </div>
        </Container>
      </header>
      <Container component="main" size="lg" className={classes.main}>
        <EmailConfirmationBanner />
        <ViewedRecordBanner />
        <OfflineReading value={offlineReading}>
          <Outlet />
        </OfflineReading>
      </Container>
      <footer className={classes.footer}>
        {config.data && (
          <Container size="lg">
            © {new Date().getFullYear()} {config.data.company_name}
          </Container>
        )}
      </footer>
    </div>
  );
}
