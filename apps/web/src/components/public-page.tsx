import type { ReactNode } from 'react';
import { Paper, Title } from '@mantine/core';
import { useDocumentTitle } from '../lib/document-title';
import { Banner } from './banner';
import classes from './public-page.module.css';

export interface PublicPageProps {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  /** A wider card, for pages that show pictures (a share link's page). */
  wide?: boolean;
}

/** The frame of the screens a guest may open: banner, one card with the form, optional footer. */
export function PublicPage({ title, children, footer, wide = false }: PublicPageProps) {
  useDocumentTitle(title);
  return (
    <div className={classes.shell}>
      <header className={classes.header}>
        <Banner />
      </header>
      <main className={wide ? `${classes.main} ${classes.wide}` : classes.main}>
        <Paper withBorder shadow="xs" p="lg" className={classes.card}>
          <Title order={1} size="h2" mb="md">
            {title}
          </Title>
          {children}
        </Paper>
      </main>
      {footer !== undefined && <footer className={classes.footer}>{footer}</footer>}
    </div>
  );
}
