import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useConsultations } from '../api/clinic-api';
import type { ClinicConsultation, ConsultationPeriod } from '@dental/contracts';
import { useStaff } from '../console-gate';
import { ConsultationCard } from './consultation-card';

/** The consultations of one period, each card ending in what `extra` adds. */
export function ConsultationList({
  period,
  empty,
  headingOrder,
  extra,
}: {
  period: ConsultationPeriod;
  empty: string;
  headingOrder: 2 | 3;
  extra?: (consultation: ClinicConsultation) => ReactNode;
}) {
  const staff = useStaff();
  const list = useConsultations(period);
  if (list.isError) return <LoadFailed error={list.error} onRetry={list.refetch} />;
  if (list.data === undefined) return <PageSpinner />;
  if (list.data.results.length === 0) return <Text>{empty}</Text>;
  return (
    <Stack gap="sm">
      {list.data.results.map((consultation) => (
        <ConsultationCard
          key={consultation.id}
          consultation={consultation}
          showPractitioner={staff.role === 'clinic_admin'}
          headingOrder={headingOrder}
        >
          {extra?.(consultation)}
        </ConsultationCard>
      ))}
    </Stack>
  );
}
