import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { IconFileCheck } from '@tabler/icons-react';
import { readyReports, reportKindNames, reportPaths } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { apiRequest } from '#web/lib/api-client';
import classes from './home-card.module.css';

/**
 * Home's notice that a report is ready (docs/decisions/reports.md): shown while a
 * report finished in the last 7 days has not been downloaded, naming only its kind, with the way
 * to Reports. Nothing while it loads or if the call fails: the e-mail says it too.
 */
export function ReadyReportsNotice() {
  const ready = useQuery({
    queryKey: ['reports-ready'],
    queryFn: () => apiRequest(reportPaths.ready, readyReports),
  });
  const results = ready.data?.results ?? [];
  const [first] = results;
  if (first === undefined) return null;
  const text =
    results.length === 1
      ? `Your ${reportKindNames[first.kind].toLowerCase()} is ready`
      : `${String(results.length)} reports are ready`;
  return (
    <Link to={paths.reports} className={classes.card}>
      <IconFileCheck size={32} aria-hidden />
      <Text component="span" fw={600} className={classes.name}>
        {text}.
      </Text>{' '}
      <Text component="span" size="sm">
        Open Reports to download
      </Text>
    </Link>
  );
}
