import { Anchor, Container } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { useAccount } from '../lib/account';
import { usePublicConfig } from '../lib/public-config';
import { Banner } from '../components/banner';
import { paths } from '../config/paths';
import {
  RecordSwitcher,
  ViewedRecordBanner,
} from '../features/delegation/components/record-switcher';
import classes from './app-layout.module.css';

/** The frame of every signed-in screen: banner, home and account links, copyright footer. */
export default function AppLayout() {
  const account = useAccount();
  const config = usePublicConfig();
  return (
    <div className={classes.shell}>
      <header className={classes.header}>
        <Container size="lg" className={classes.headerInner}>
          <Banner />
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
        </Container>
      </header>
      <Container component="main" size="lg" className={classes.main}>
        <ViewedRecordBanner />
        <Outlet />
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
