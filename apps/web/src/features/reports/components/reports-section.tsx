import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Section } from '#web/components/section';
import { paths } from '#web/config/paths';

/** The Profile's way to the Reports screen (docs/product/reports.md). */
export function ReportsSection() {
  return (
    <Section title="Reports">
      <Text mb="xs">
        A treatment history, or your receipts with a summary of your history, for a period you
        choose, as a PDF.
      </Text>
      <Anchor component={Link} to={paths.reports} fw={600}>
        Open Reports
      </Anchor>
    </Section>
  );
}
